import type { TreeFilters, TreeSortBy } from '../../api/treeBrowser';

/**
 * The tree's choices that outlive a visit (spec 02 §9): compacted folders, sorting,
 * filters, favorite repositories and the favorites filter, one local-storage key each. A
 * stored value that does not parse, or has the wrong shape, is ignored (spec 02 §8).
 */
export interface TreeSettings {
  compacted: boolean;
  sortBy: TreeSortBy;
  filters: TreeFilters;
  favorites: string[];
  favoritesOnly: boolean;
}

export const SETTINGS_KEYS = {
  compacted: 'depot.tree.compactFolders',
  sortBy: 'depot.tree.sortBy',
  filters: 'depot.tree.filters',
  favorites: 'depot.tree.favorites',
  favoritesOnly: 'depot.tree.favoritesFilter',
} as const satisfies Record<keyof TreeSettings, string>;

export const DEFAULT_SETTINGS: TreeSettings = {
  compacted: true,
  sortBy: 'repoType',
  filters: { packageTypes: [], repositoryTypes: [] },
  favorites: [],
  favoritesOnly: false,
};

/** Spec 02 §3, §4: the support bundles' repository is left out of the favorites count. */
export const SUPPORT_BUNDLES_REPO_KEY = 'supportBundles';

/** Whether a tree row may be a favorite: a repository, neither the trash can nor bundles. */
export const canBeFavorite = (node: { type: string; repoKey: string; trash?: boolean }) =>
  node.type === 'repository' && !node.trash && node.repoKey !== SUPPORT_BUNDLES_REPO_KEY;

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const VALIDATORS: { [K in keyof TreeSettings]: (value: unknown) => value is TreeSettings[K] } = {
  compacted: (value): value is boolean => typeof value === 'boolean',
  sortBy: (value): value is TreeSortBy => value === 'repoType' || value === 'repoKey',
  filters: (value): value is TreeFilters =>
    typeof value === 'object' &&
    value !== null &&
    isStringList((value as TreeFilters).packageTypes) &&
    isStringList((value as TreeFilters).repositoryTypes),
  favorites: isStringList,
  favoritesOnly: (value): value is boolean => typeof value === 'boolean',
};

function readSetting<K extends keyof TreeSettings>(storage: Storage, key: K): TreeSettings[K] {
  try {
    const stored = storage.getItem(SETTINGS_KEYS[key]);
    const value: unknown = stored === null ? undefined : JSON.parse(stored);
    if (VALIDATORS[key](value)) return value;
  } catch {
    // unparsable: treated as not stored
  }
  return DEFAULT_SETTINGS[key];
}

export function loadSettings(storage: Storage | undefined = globalThis.localStorage): TreeSettings {
  if (!storage) return DEFAULT_SETTINGS;
  return {
    compacted: readSetting(storage, 'compacted'),
    sortBy: readSetting(storage, 'sortBy'),
    filters: readSetting(storage, 'filters'),
    favorites: readSetting(storage, 'favorites'),
    favoritesOnly: readSetting(storage, 'favoritesOnly'),
  };
}

export function saveSettings(
  settings: TreeSettings,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  if (!storage) return;
  for (const key of Object.keys(SETTINGS_KEYS) as (keyof TreeSettings)[]) {
    try {
      storage.setItem(SETTINGS_KEYS[key], JSON.stringify(settings[key]));
    } catch {
      // storage full or disabled: the choice lasts for this visit only
    }
  }
}

export const filtersActive = (settings: TreeSettings): boolean =>
  settings.favoritesOnly ||
  settings.filters.packageTypes.length > 0 ||
  settings.filters.repositoryTypes.length > 0;

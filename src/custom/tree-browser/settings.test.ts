import { describe, expect, it } from 'vitest';
import {
  canBeFavorite,
  DEFAULT_SETTINGS,
  loadSettings,
  saveSettings,
  SETTINGS_KEYS,
} from './settings';

/** A real Storage-shaped map, so each test starts empty. */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe("the tree's remembered settings (spec 02 §9, §8)", () => {
  it('are the defaults when nothing is stored', () => {
    expect(loadSettings(memoryStorage())).toEqual(DEFAULT_SETTINGS);
  });

  it('come back as they were saved: sorting, filters, favorites, compacted folders', () => {
    const storage = memoryStorage();
    const chosen = {
      compacted: false,
      sortBy: 'repoKey' as const,
      filters: { packageTypes: ['npm', 'maven'], repositoryTypes: ['remote'] },
      favorites: ['libs-local'],
      favoritesOnly: true,
    };
    saveSettings(chosen, storage);
    expect(loadSettings(storage)).toEqual(chosen);
  });

  it('ignore a value that does not parse or has the wrong shape, one key at a time', () => {
    const storage = memoryStorage({
      [SETTINGS_KEYS.compacted]: '{not json',
      [SETTINGS_KEYS.sortBy]: '"byColour"',
      [SETTINGS_KEYS.filters]: '{"packageTypes":"npm","repositoryTypes":[]}',
      [SETTINGS_KEYS.favorites]: '["libs-local",3]',
      [SETTINGS_KEYS.favoritesOnly]: 'true',
    });
    expect(loadSettings(storage)).toEqual({ ...DEFAULT_SETTINGS, favoritesOnly: true });
  });

  it('last for the visit when the storage refuses to keep them', () => {
    const full = memoryStorage();
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    expect(() => saveSettings({ ...DEFAULT_SETTINGS, compacted: false }, full)).not.toThrow();
    expect(loadSettings(full)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('favorites', () => {
  it('may be any repository but the trash can and the support bundles (spec 02 §4)', () => {
    expect(canBeFavorite({ type: 'repository', repoKey: 'libs-local' })).toBe(true);
    expect(canBeFavorite({ type: 'repository', repoKey: 'auto-trashcan', trash: true })).toBe(
      false,
    );
    expect(canBeFavorite({ type: 'repository', repoKey: 'supportBundles' })).toBe(false);
    expect(canBeFavorite({ type: 'folder', repoKey: 'libs-local' })).toBe(false);
  });
});

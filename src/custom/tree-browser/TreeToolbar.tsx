import { useEffect, useState } from 'react';
import { useUnit } from 'effector-react';
import { repositoriesApi, type PackageTypeEntry } from '../../api/repositories';
import type { TreeFilters } from '../../api/treeBrowser';
import {
  $fetching,
  $settings,
  compactedToggled,
  favoritesOnlyToggled,
  filtersChanged,
  refreshClicked,
  sortChanged,
} from './model';
import { REPO_TYPE_LABELS, TREE_LABELS as L } from './messages';
import type { TreeSettings } from './settings';
import { Select } from '../../design/components/Select';

const SORT_CHOICES = Object.entries(L.sortOptions).map(([value, label]) => ({
  value: value as TreeSettings['sortBy'],
  label,
}));

const REPO_TYPES = Object.keys(REPO_TYPE_LABELS);

/** The tree's controls: refresh, compacted folders, favorites only, sorting, filters. */
export function TreeToolbar() {
  const [settings, fetching, onRefresh, onCompact, onFavoritesOnly, onSort] = useUnit([
    $settings,
    $fetching,
    refreshClicked,
    compactedToggled,
    favoritesOnlyToggled,
    sortChanged,
  ]);
  return (
    <div className="tree-toolbar">
      <button type="button" className="btn" onClick={() => onRefresh()} aria-busy={fetching > 0}>
        {L.refresh}
      </button>
      <label className="tree-toggle">
        <input type="checkbox" checked={settings.compacted} onChange={() => onCompact()} />
        {L.compacted}
      </label>
      <label className="tree-toggle">
        <input
          type="checkbox"
          checked={settings.favoritesOnly}
          onChange={() => onFavoritesOnly()}
        />
        {L.favoritesOnly}
      </label>
      <Select
        className="tree-sort"
        label={L.sortBy}
        options={SORT_CHOICES}
        value={settings.sortBy}
        onChange={onSort}
      />
      <FilterMenu filters={settings.filters} />
    </div>
  );
}

function FilterMenu({ filters }: { filters: TreeFilters }) {
  const onChange = useUnit(filtersChanged);
  const [packageTypes, setPackageTypes] = useState<PackageTypeEntry[]>([]);
  useEffect(() => {
    repositoriesApi.packageTypes('local').then(setPackageTypes, () => setPackageTypes([]));
  }, []);
  const count = filters.packageTypes.length + filters.repositoryTypes.length;
  const toggle = (list: string[], value: string) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  return (
    <details className="tree-filter">
      <summary>
        {L.filter}
        {count > 0 ? ` (${count})` : ''}
      </summary>
      <div className="tree-filter-panel">
        <fieldset>
          <legend>{L.repositoryTypes}</legend>
          {REPO_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={filters.repositoryTypes.includes(type)}
                onChange={() =>
                  onChange({ ...filters, repositoryTypes: toggle(filters.repositoryTypes, type) })
                }
              />
              {REPO_TYPE_LABELS[type]}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{L.packageTypes}</legend>
          {packageTypes.map((type) => (
            <label key={type.value}>
              <input
                type="checkbox"
                checked={filters.packageTypes.includes(type.value)}
                onChange={() =>
                  onChange({ ...filters, packageTypes: toggle(filters.packageTypes, type.value) })
                }
              />
              {type.text}
            </label>
          ))}
        </fieldset>
        {count > 0 && (
          <button
            type="button"
            className="btn"
            onClick={() => onChange({ packageTypes: [], repositoryTypes: [] })}
          >
            {L.clearFilters}
          </button>
        )}
      </div>
    </details>
  );
}

import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import { Select } from '../../design/components/Select';
import { packageTypeOf } from './api';
import { PACKAGE_TYPE_LABELS, SEARCH_LABELS as L } from './messages';
import { $packageTypes, packageSearchShown } from './packageTypesModel';
import type { SearchParams } from './query';

/**
 * The package search's fields (spec 02 §3): a package-type selector over the types the
 * server indexes, then that type's own fields (npm: name, version, scope; Maven: group,
 * artifact, version, classifier), each kept under its `uiSearchKey` in the query string.
 * The repositories field is the form's own.
 */
export function PackageSearchFields({
  draft,
  onChange,
}: {
  draft: SearchParams;
  onChange: (patch: Partial<SearchParams>) => void;
}) {
  const [types, shown] = useUnit([$packageTypes, packageSearchShown]);
  useEffect(() => shown(), [shown]);
  const chosen = packageTypeOf(draft);
  const fields = types.find((type) => type.id === chosen)?.fields ?? [];
  return (
    <>
      <Select
        label={L.packageType}
        className="search-field"
        options={(types.length > 0 ? types : [{ id: chosen }]).map((type) => ({
          value: type.id,
          label: PACKAGE_TYPE_LABELS[type.id] ?? type.id,
        }))}
        value={chosen}
        // Another type has other fields: only the name carries over.
        onChange={(pkg) =>
          onChange({
            pkg,
            artifact: undefined,
            version: undefined,
            classifier: undefined,
            scope: undefined,
          })
        }
      />
      {fields
        .filter((field) => field.uiSearchKey !== 'repo')
        .map((field) => {
          const key = field.uiSearchKey as keyof SearchParams;
          return (
            <label key={field.id} className="search-field">
              <span>{field.displayName}</span>
              <input
                value={(draft[key] as string | undefined) ?? ''}
                onChange={(event) => onChange({ [key]: event.target.value })}
              />
            </label>
          );
        })}
    </>
  );
}

import type { PackageTypeEntry } from '../../api/repositories';
import { REPO_LABELS } from './messages';

/** Step one of a new repository: the catalogue's types this kind allows, as a grid. */
export function PackageTypePicker({
  types,
  onPick,
}: {
  types: PackageTypeEntry[];
  onPick: (type: PackageTypeEntry) => void;
}) {
  return (
    <section aria-labelledby="package-type-title">
      <h2 id="package-type-title">{REPO_LABELS.selectPackageType}</h2>
      <ul className="package-type-grid">
        {types.map((type) => (
          <li key={type.value}>
            <button
              type="button"
              className="btn"
              title={type.description}
              onClick={() => onPick(type)}
            >
              <span className="package-type-icon" aria-hidden="true">
                {type.icon.slice(0, 2)}
              </span>
              <span>{type.text}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

import type { SupportBundle } from '../../api/supportBundles';
import { supportBundlesApi } from '../../api/supportBundles';
import { formatSize } from '../storage-summary/format';
import { SUPPORT_ZONE_LABELS as L } from './messages';

/** A bundle's state in words, with its progress while it is made and its error if it failed. */
function BundleStatus({ bundle }: { bundle: SupportBundle }) {
  const label = L.statusLabels[bundle.statusClass] ?? bundle.status;
  return (
    <>
      <span className={`status-badge status-${bundle.statusClass}`}>{label}</span>
      {bundle.statusClass === 'in-progress' && (
        <progress
          className="support-bundle-progress"
          max={100}
          value={bundle.progress}
          aria-label={`${bundle.name}: ${bundle.progress}%`}
        />
      )}
      {bundle.error && <p className="field-error">{bundle.error}</p>}
    </>
  );
}

interface BundlesTableProps {
  bundles: SupportBundle[];
  onDelete: (bundle: SupportBundle) => void;
}

export function BundlesTable({ bundles, onDelete }: BundlesTableProps) {
  const C = L.columns;
  return (
    <table className="support-bundles-table">
      <thead>
        <tr>
          <th scope="col">{C.name}</th>
          <th scope="col">{C.description}</th>
          <th scope="col">{C.created}</th>
          <th scope="col">{C.status}</th>
          <th scope="col">{C.size}</th>
          <th scope="col">{C.actions}</th>
        </tr>
      </thead>
      <tbody>
        {bundles.map((bundle) => (
          <tr key={bundle.id}>
            <th scope="row">{bundle.name}</th>
            <td>{bundle.description}</td>
            <td>{new Date(bundle.create_date).toLocaleString()}</td>
            <td>
              <BundleStatus bundle={bundle} />
            </td>
            <td>{bundle.size === undefined ? '' : formatSize(bundle.size)}</td>
            <td className="support-bundle-actions">
              {bundle.statusClass === 'success' && (
                <a
                  className="btn"
                  href={supportBundlesApi.downloadUrl(bundle.id)}
                  download
                  aria-label={`${L.download} ${bundle.name}`}
                >
                  {L.download}
                </a>
              )}
              {bundle.statusClass !== 'in-progress' && (
                <button
                  type="button"
                  className="btn btn-danger"
                  aria-label={`${L.delete} ${bundle.name}`}
                  onClick={() => onDelete(bundle)}
                >
                  {L.delete}
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

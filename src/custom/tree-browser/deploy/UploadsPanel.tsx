import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../../design/components/ConfirmDialog';
import {
  $confirmingCancelAll,
  $overallProgress,
  $panelVisible,
  $uploads,
  cancelAllClicked,
  cancelAllConfirmed,
  cancelAllDismissed,
  uploadCancelled,
} from './deploy-model';
import { DEPLOY_LABELS as D } from './messages';

/** The multi-deploy notification: each file's progress, cancel one or all (spec 02 §4). */
export function UploadsPanel() {
  const [uploads, overall, visible, confirming] = useUnit([
    $uploads,
    $overallProgress,
    $panelVisible,
    $confirmingCancelAll,
  ]);
  const [cancel, cancelAll, confirm, dismiss] = useUnit([
    uploadCancelled,
    cancelAllClicked,
    cancelAllConfirmed,
    cancelAllDismissed,
  ]);
  if (!visible) return null;
  return (
    <aside className="uploads-panel card" aria-label={D.panel}>
      <header>
        <strong>{D.panel}</strong> <span>{D.overall(overall)}</span>
        <progress max={100} value={overall} aria-label={D.overall(overall)} />
      </header>
      <ul>
        {uploads.map((upload) => (
          <li key={upload.uid} className={`upload upload-${upload.status}`}>
            <span className="upload-name" title={upload.target}>
              {upload.name}
            </span>
            <progress max={100} value={upload.percentage} aria-label={upload.name} />
            <span className="upload-status">
              {upload.status === 'uploading' ? `${upload.percentage}%` : D.status[upload.status]}
            </span>
            {upload.status !== 'success' && (
              <button
                type="button"
                className="btn btn-link"
                aria-label={D.cancelFile(upload.name)}
                onClick={() => cancel(upload.uid)}
              >
                ✕
              </button>
            )}
            {upload.error && <p className="error-text">{upload.error}</p>}
          </li>
        ))}
      </ul>
      <button type="button" className="btn" onClick={() => cancelAll()}>
        {D.cancelAll}
      </button>
      {confirming && (
        <ConfirmDialog
          title={D.cancelAll}
          text={D.cancelAllQuestion}
          confirmLabel={D.cancelAll}
          cancelLabel={D.keepGoing}
          danger
          onConfirm={() => confirm()}
          onCancel={() => dismiss()}
        />
      )}
    </aside>
  );
}

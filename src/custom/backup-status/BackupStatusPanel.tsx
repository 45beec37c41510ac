import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { BACKUP_STATUS_LABELS as L, progressText, runText } from './messages';
import {
  $restoreAsked,
  $restoreError,
  $status,
  panelClosed,
  restoreCancelled,
  restoreClicked,
  restoreConfirmed,
  restoreFx,
  runNowClicked,
  runNowFx,
  statusRequested,
} from './model';
import './backup-status.css';

/** How often the panel asks again: often while a run goes on, seldom otherwise. */
const RUNNING_REFRESH_MS = 1000;
const IDLE_REFRESH_MS = 10000;

const time = (iso: string) => new Date(iso).toLocaleString();

/**
 * Under a backup's edit form: the run going on (phase, binaries and bytes done), the last
 * run's outcome and sentence (why it failed), the next run, Run Now, and Restore of the
 * newest backup with a confirmation (docs/backup.md, "Runs" and "Restore").
 */
export default function BackupStatusPanel() {
  const key = useParams().key ?? '';
  const [status, requested, closed] = useUnit([$status, statusRequested, panelClosed]);
  const [runNow, starting] = useUnit([runNowClicked, runNowFx.pending]);
  const [asked, ask, cancel, confirm, restoring, restoreError] = useUnit([
    $restoreAsked,
    restoreClicked,
    restoreCancelled,
    restoreConfirmed,
    restoreFx.pending,
    $restoreError,
  ]);
  const running = Boolean(status?.running);

  useEffect(() => {
    requested(key);
    const timer = setInterval(() => requested(key), running ? RUNNING_REFRESH_MS : IDLE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [key, running, requested]);
  useEffect(() => () => closed(), [key, closed]);

  return (
    <section className="card backup-status" aria-labelledby="backup-status-title">
      <header className="page-header">
        <h2 id="backup-status-title">{L.title}</h2>
        <div className="backup-status-actions">
          <button
            type="button"
            className="btn"
            disabled={running || starting}
            onClick={() => runNow(key)}
          >
            {L.runNow}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!status?.newestBackup || running || restoring}
            onClick={() => ask()}
          >
            {L.restore}
          </button>
        </div>
      </header>
      {status === null ? (
        <p role="status">{L.loading}</p>
      ) : (
        <dl className="backup-status-facts" aria-live="polite">
          {status.running && (
            <>
              <dt>{L.running}</dt>
              <dd role="status">{status.progress ? progressText(status.progress) : L.running}</dd>
            </>
          )}
          <dt>{L.lastRun}</dt>
          <dd>
            {status.lastRun ? (
              <>
                <span>{runText(status.lastRun, time)}</span>
                {status.lastRun.info && (
                  <span
                    className={status.lastRun.outcome === 'failure' ? 'backup-run-failed' : ''}
                    role={status.lastRun.outcome === 'failure' ? 'alert' : undefined}
                  >
                    {status.lastRun.info}
                  </span>
                )}
              </>
            ) : (
              L.never
            )}
          </dd>
          <dt>{L.nextRun}</dt>
          <dd>{status.nextRun ? time(status.nextRun) : L.notScheduled}</dd>
          <dt>{L.newest}</dt>
          <dd>{status.newestBackup ?? L.noBackup}</dd>
        </dl>
      )}
      {restoreError && (
        <p role="alert" className="backup-run-failed">
          {restoreError}
        </p>
      )}
      {asked && status?.newestBackup && (
        <ConfirmDialog
          title={L.restoreTitle}
          text={L.restoreText(status.newestBackup)}
          confirmLabel={L.restoreConfirm}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => confirm(key)}
          onCancel={() => cancel()}
        />
      )}
    </section>
  );
}

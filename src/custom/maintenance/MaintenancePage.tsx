import { useCallback, useEffect } from 'react';
import { useProvidedScope, useUnit } from 'effector-react';
import type { MaintenanceForm, MaintenanceJobView } from '../../api/maintenance';
import { CheckboxField } from '../../design/components/CheckboxField';
import { TextField } from '../../design/components/TextField';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import {
  $busyJobs,
  $canSave,
  $cronChecks,
  $dirty,
  $fetchError,
  $fieldErrors,
  $form,
  $formBusy,
  $view,
  fieldChanged,
  pageMounted,
  quotaToggled,
  resetClicked,
  runClicked,
  saveClicked,
} from './model';
import { JOB_CARDS, MAINTENANCE_LABELS as L, PERCENT_INPUT } from './messages';
import './maintenance.css';

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * Administration > Artifactory > Advanced > Maintenance (spec 03 §2): a card per job with its
 * cron (checked live by the server), next and last run and its Run Now button, then the
 * storage quota; Save and Reset for the crons and the quota.
 */
export default function MaintenancePage() {
  const [view, form, fetchError, errors, checks, busy, canSave, formBusy, dirty] = useUnit([
    $view,
    $form,
    $fetchError,
    $fieldErrors,
    $cronChecks,
    $busyJobs,
    $canSave,
    $formBusy,
    $dirty,
  ]);
  const [mounted, changed, toggled, save, reset, run] = useUnit([
    pageMounted,
    fieldChanged,
    quotaToggled,
    saveClicked,
    resetClicked,
    runClicked,
  ]);
  const scope = useProvidedScope();
  const isDirty = useCallback(() => (scope ? scope.getState($dirty) : $dirty.getState()), [scope]);
  useEffect(() => mounted(), [mounted]);

  if (fetchError) return <p role="alert">{fetchError}</p>;
  if (!view || !form) return <p role="status">{L.loading}</p>;

  const percentField = (field: 'storageLimit' | 'storageWarning', label: string) => (
    <TextField
      label={label}
      type="number"
      {...PERCENT_INPUT}
      required
      disabled={!form.quotaControl || formBusy}
      // -1 is the server's "not set"; an empty input says it better.
      value={form[field] < 0 ? '' : String(form[field])}
      error={errors[field]}
      onChange={(event) => changed({ [field]: Number(event.target.value) })}
    />
  );

  return (
    <section className="maintenance" aria-labelledby="maintenance-title">
      <header className="page-header">
        <h1 id="maintenance-title">{L.title}</h1>
      </header>
      <UnsavedChangesGuard isDirty={isDirty} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        noValidate
      >
        <div className="maintenance-cards">
          {JOB_CARDS.map((card) => {
            const status = view.jobs[card.job];
            const cron = card.cronField ? form[card.cronField].trim() : '';
            const check = checks[cron];
            const running = busy.includes(card.job) || status.running;
            return (
              <section
                key={card.job}
                className="card maintenance-card"
                aria-labelledby={`job-${card.job}`}
                aria-busy={running}
              >
                <h2 id={`job-${card.job}`}>{card.title}</h2>
                <p className="field-help">{card.description}</p>
                {card.cronField && (
                  <>
                    <TextField
                      label={L.cronExpression}
                      required
                      disabled={formBusy}
                      value={form[card.cronField]}
                      error={errors[card.cronField]}
                      onChange={(event) =>
                        changed({
                          [card.cronField!]: event.target.value,
                        } as Partial<MaintenanceForm>)
                      }
                    />
                    {check && 'nextRun' in check && !errors[card.cronField] && (
                      <p className="maintenance-next">
                        {L.nextRun}: <time dateTime={check.nextRun}>{when(check.nextRun)}</time>
                      </p>
                    )}
                  </>
                )}
                <LastRun status={status} />
                <button
                  type="button"
                  className="btn"
                  disabled={running}
                  onClick={() => run(card.job)}
                >
                  {running ? L.running : card.button}
                </button>
                {running && (
                  <span role="status" className="visually-hidden">
                    {`${card.title}: ${L.running}`}
                  </span>
                )}
              </section>
            );
          })}
        </div>

        <section className="card maintenance-quota" aria-labelledby="storage-quota">
          <h2 id="storage-quota">{L.storageQuota}</h2>
          <p>{L.diskUsage(view.storageUsage.usedPercent)}</p>
          {view.storageUsage.limitReached ? (
            <p role="alert" className="error-text">
              {L.overLimit}
            </p>
          ) : (
            view.storageUsage.warning && (
              <p role="alert" className="maintenance-warning">
                {L.overWarning}
              </p>
            )
          )}
          <CheckboxField
            label={L.quotaControl}
            checked={form.quotaControl}
            disabled={formBusy}
            onChange={(event) => toggled(event.target.checked)}
          />
          {percentField('storageLimit', L.storageLimit)}
          {percentField('storageWarning', L.storageWarning)}
        </section>

        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={!canSave}>
            {L.save}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!dirty || formBusy}
            onClick={() => reset()}
          >
            {L.reset}
          </button>
        </div>
      </form>
    </section>
  );
}

function LastRun({ status }: { status: MaintenanceJobView }) {
  const last = status.lastRun;
  return (
    <p className="maintenance-last">
      {L.lastRun}:{' '}
      {last ? (
        <>
          <time dateTime={last.startedAt}>{when(last.startedAt)}</time> —{' '}
          <span className={last.outcome === 'failure' ? 'error-text' : undefined}>{last.info}</span>
        </>
      ) : (
        L.neverRun
      )}
    </p>
  );
}

import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { ApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import {
  maintenanceApi,
  type MaintenanceForm,
  type MaintenanceJobName,
  type MaintenanceView,
} from '../../api/maintenance';
import { notificationShown } from '../../shell/notifications/model';
import {
  CRON_FIELDS,
  JOB_CARDS,
  MAINTENANCE_LABELS as L,
  MAINTENANCE_MESSAGES as M,
  QUOTA_STARTING_VALUES,
} from './messages';
import { fieldErrors, formOf, sameForm, type CronCheck, type FieldErrors } from './validation';

export const pageMounted = createEvent();
export const fieldChanged = createEvent<Partial<MaintenanceForm>>();
export const quotaToggled = createEvent<boolean>();
export const saveClicked = createEvent();
export const resetClicked = createEvent();
export const runClicked = createEvent<MaintenanceJobName>();

export const fetchMaintenanceFx = createEffect(maintenanceApi.get);
/** After a run: the jobs' last runs and the disk usage, leaving the form as the user has it. */
export const refreshStatusFx = createEffect(maintenanceApi.get);
export const saveMaintenanceFx = createEffect(maintenanceApi.save);
export const runJobFx = createEffect(maintenanceApi.run);
export const checkCronsFx = createEffect(async (crons: string[]) =>
  Promise.all(
    crons.map(async (cron): Promise<[string, CronCheck]> => {
      try {
        return [cron, { nextRun: (await maintenanceApi.cronTime(cron)).nextRun }];
      } catch (error) {
        return [cron, { error: errorMessage(error, M.invalidCron) }];
      }
    }),
  ),
);

const titleOf = (job: MaintenanceJobName) => JOB_CARDS.find((card) => card.job === job)!.title;

export const $view = createStore<MaintenanceView | null>(null)
  .on([fetchMaintenanceFx.doneData, refreshStatusFx.doneData], (_, view) => view)
  .on(saveMaintenanceFx.doneData, (_, view) => view);
export const $fetchError = createStore<string | null>(null)
  .on(fetchMaintenanceFx, () => null)
  .on(fetchMaintenanceFx.failData, (_, error) => errorMessage(error, L.fetchFailed));

/** The form as saved on the server, and as the user is editing it. */
export const $savedForm = createStore<MaintenanceForm | null>(null).on(
  [fetchMaintenanceFx.doneData, saveMaintenanceFx.doneData],
  (_, view) => formOf(view),
);
export const $form = createStore<MaintenanceForm | null>(null)
  .on([fetchMaintenanceFx.doneData, saveMaintenanceFx.doneData], (_, view) => formOf(view))
  .on(fieldChanged, (form, change) => (form ? { ...form, ...change } : form));

/** Answers of /ui/crontime by cron text: a late answer for an old text is simply unused. */
export const $cronChecks = createStore<Record<string, CronCheck>>({}).on(
  checkCronsFx.doneData,
  (checks, answers) => ({ ...checks, ...Object.fromEntries(answers) }),
);
/** Messages the server gave on the last save, until the user edits again. */
const $serverErrors = createStore<FieldErrors>({})
  .on(fieldChanged, () => ({}))
  .on(saveMaintenanceFx.failData, (_, error) =>
    Object.fromEntries(
      error instanceof ApiError ? error.fieldErrors.map((e) => [e.field, e.message]) : [],
    ),
  );

export const $fieldErrors = combine($form, $cronChecks, $serverErrors, (form, checks, server) =>
  form ? { ...server, ...fieldErrors(form, checks) } : {},
);
export const $dirty = combine($form, $savedForm, (form, saved) => !sameForm(form, saved));
export const $saving = saveMaintenanceFx.pending;
/**
 * Saving, or reading the settings when the page opens again: the form stays locked until the
 * answer is in it, since a visit shows the last form at once and the answer replaces it (an
 * edit typed meanwhile would be lost).
 */
export const $formBusy = combine(
  $saving,
  fetchMaintenanceFx.pending,
  (saving, reading) => saving || reading,
);
export const $canSave = combine(
  $dirty,
  $formBusy,
  $fieldErrors,
  (dirty, busy, errors) => dirty && !busy && Object.keys(errors).length === 0,
);
/** Jobs whose Run Now is in progress from this page. */
export const $busyJobs = createStore<MaintenanceJobName[]>([])
  .on(runJobFx, (jobs, job) => [...jobs, job])
  .on(runJobFx.finally, (jobs, { params }) => jobs.filter((job) => job !== params));

// when the page opens, fetch the settings
sample({ clock: pageMounted, target: fetchMaintenanceFx });

const uncheckedCronsFound = createEvent<string[]>();
// when a cron the server has not judged yet appears in the form, ask for its next run
sample({
  clock: $form,
  source: $cronChecks,
  filter: (_, form) => form !== null,
  fn: (checks, form) =>
    [...new Set(CRON_FIELDS.map((field) => form![field].trim()))].filter(
      (cron) => cron !== '' && !(cron in checks),
    ),
  target: uncheckedCronsFound,
});
sample({ clock: uncheckedCronsFound, filter: (crons) => crons.length > 0, target: checkCronsFx });

// when quota control is turned on with the "not set" values, start from sensible ones
sample({
  clock: quotaToggled,
  source: $form,
  fn: (form, on): Partial<MaintenanceForm> =>
    on && form && (form.storageLimit < 0 || form.storageWarning < 0)
      ? { quotaControl: true, ...QUOTA_STARTING_VALUES }
      : { quotaControl: on },
  target: fieldChanged,
});

// when Save is clicked on a valid, changed form, save it
sample({
  clock: saveClicked,
  source: { form: $form, canSave: $canSave },
  filter: ({ canSave, form }) => canSave && form !== null,
  fn: ({ form }) => form!,
  target: saveMaintenanceFx,
});

// when Reset is clicked, go back to what is saved
sample({
  clock: resetClicked,
  source: $savedForm,
  filter: (saved): saved is MaintenanceForm => saved !== null,
  target: fieldChanged,
});

// when saving works, say so; when it fails, say why
sample({
  clock: saveMaintenanceFx.doneData,
  fn: (answer) => ({ kind: 'success' as const, text: answer.info }),
  target: notificationShown,
});
sample({
  clock: saveMaintenanceFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, L.saveFailed) }),
  target: notificationShown,
});

// when Run Now is clicked on a job not already running from here, run it
sample({
  clock: runClicked,
  source: $busyJobs,
  filter: (busy, job) => !busy.includes(job),
  fn: (_, job) => job,
  target: runJobFx,
});

// when a run ends, show what it did (or why it failed) and refresh the last runs
sample({
  clock: runJobFx.doneData,
  fn: (answer) => ({ kind: 'success' as const, text: answer.info }),
  target: notificationShown,
});
sample({
  clock: runJobFx.fail,
  fn: ({ params, error }) => ({
    kind: 'error' as const,
    text: errorMessage(error, L.runFailed(titleOf(params))),
  }),
  target: notificationShown,
});
sample({ clock: runJobFx.finally, target: refreshStatusFx });

import { useId, useState, type FormEvent } from 'react';
import type { BundleRequest } from '../../api/supportBundles';
import { Dialog } from '../../design/components/Dialog';
import { TextField } from '../../design/components/TextField';
import { defaultRange, SUPPORT_ZONE_LABELS as L } from './messages';

interface CreateBundleDialogProps {
  /** The server's refusal of the last try, if any. */
  serverError: string | null;
  busy: boolean;
  onSubmit: (request: BundleRequest) => void;
  onClose: () => void;
}

/** Checks what the browser can: both dates given, in order. */
function rangeError({ startDate, endDate }: BundleRequest) {
  if (!startDate || !endDate) return L.dateRequired;
  return startDate > endDate ? L.datesOutOfOrder : undefined;
}

/** Name, description and the logs' date range of a new support bundle. */
export function CreateBundleDialog({
  serverError,
  busy,
  onSubmit,
  onClose,
}: CreateBundleDialogProps) {
  const formId = useId();
  const [request, setRequest] = useState<BundleRequest>(() => ({
    name: '',
    description: '',
    ...defaultRange(),
  }));
  const [checked, setChecked] = useState(false);
  const dateError = checked ? rangeError(request) : undefined;
  const set = (field: keyof BundleRequest) => (event: { target: { value: string } }) =>
    setRequest({ ...request, [field]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!rangeError(request)) onSubmit(request);
  };

  return (
    <Dialog
      title={L.createTitle}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {L.submit}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {L.cancel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label={L.name}
          value={request.name}
          placeholder={L.namePlaceholder}
          maxLength={200}
          onChange={set('name')}
        />
        <TextField
          label={L.description}
          value={request.description}
          maxLength={1000}
          onChange={set('description')}
        />
        <TextField
          label={L.logsFrom}
          type="date"
          required
          value={request.startDate}
          onChange={set('startDate')}
          error={dateError}
        />
        <TextField
          label={L.logsTo}
          type="date"
          required
          value={request.endDate}
          onChange={set('endDate')}
        />
        {serverError && (
          <p className="field-error" role="alert">
            {serverError}
          </p>
        )}
      </form>
    </Dialog>
  );
}

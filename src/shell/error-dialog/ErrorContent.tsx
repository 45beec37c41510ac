import { useId, useState } from 'react';
import { ERROR_DIALOG } from '../messages';
import type { ErrorDetails } from './model';

/** The generic error text and its "See more details" disclosure (spec 01 §8). */
export function ErrorContent({ details }: { details: ErrorDetails }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <>
      <p>{ERROR_DIALOG.text}</p>
      <p>{ERROR_DIALOG.advice}</p>
      <button
        type="button"
        className="btn-link"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
      >
        {ERROR_DIALOG.seeMore}
      </button>
      <dl id={detailsId} hidden={!open} className="error-details">
        <dt>{ERROR_DIALOG.details.message}</dt>
        <dd>{details.summary}</dd>
        {details.status !== undefined && (
          <>
            <dt>{ERROR_DIALOG.details.status}</dt>
            <dd>{details.status}</dd>
          </>
        )}
        {details.request && (
          <>
            <dt>{ERROR_DIALOG.details.request}</dt>
            <dd>{details.request}</dd>
          </>
        )}
        <dt>{ERROR_DIALOG.details.time}</dt>
        <dd>{details.time}</dd>
      </dl>
    </>
  );
}

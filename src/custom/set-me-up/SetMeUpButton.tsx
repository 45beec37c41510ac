import { lazy, Suspense } from 'react';
import { useUnit } from 'effector-react';
import { $open, setMeUpOpened } from './model';
import { SET_ME_UP_LABELS as L } from './messages';
import './set-me-up.css';

const SetMeUpDialog = lazy(() => import('./SetMeUpDialog'));

/** The toolbar's Set Me Up entry (spec 01 §2: for everyone) and the panel it opens. */
export function SetMeUpButton() {
  const open = useUnit($open);
  return (
    <>
      <button type="button" className="btn" onClick={() => setMeUpOpened()}>
        {L.open}
      </button>
      {open && (
        <Suspense fallback={null}>
          <SetMeUpDialog />
        </Suspense>
      )}
    </>
  );
}

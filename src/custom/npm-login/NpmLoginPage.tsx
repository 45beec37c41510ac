import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $currentUser } from '../../shell/session/model';
import {
  $busy,
  $error,
  $outcome,
  $request,
  approveClicked,
  denyClicked,
  pageOpened,
} from './model';
import { NPM_LOGIN_LABELS as L } from './messages';

/**
 * `/ui/npm-login/{loginId}`: where `npm login` sends its user (docs/npm.md). The signed-in
 * user approves, and npm, polling meanwhile, gets a token of theirs; or denies.
 */
export default function NpmLoginPage() {
  const { loginId = '' } = useParams();
  const [request, outcome, error, busy, user] = useUnit([
    $request,
    $outcome,
    $error,
    $busy,
    $currentUser,
  ]);
  const [open, approve, deny] = useUnit([pageOpened, approveClicked, denyClicked]);
  useEffect(() => {
    open(loginId);
  }, [loginId, open]);

  return (
    <section className="npm-login" aria-labelledby="npm-login-title">
      <header className="page-header">
        <h1 id="npm-login-title">{L.title}</h1>
      </header>
      {error && <p role="alert">{error}</p>}
      {!error && !request && <p role="status">{L.loading}</p>}
      {outcome && <p role="status">{outcome === 'approved' ? L.approved : L.denied}</p>}
      {request && !outcome && request.state !== 'pending' && (
        <p role="status">{L.alreadySettled(request.state)}</p>
      )}
      {request && !outcome && request.state === 'pending' && (
        <>
          <p>{L.asking(request.repoKey, user?.name ?? '')}</p>
          <p className="hint">{L.warning}</p>
          <div className="form-buttons">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={approve}>
              {L.approve}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={deny}>
              {L.deny}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

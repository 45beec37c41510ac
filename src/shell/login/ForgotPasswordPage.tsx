import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { TextField } from '../../design/components/TextField';
import { $forgotError, $forgotInfo, forgotFx, forgotSubmitted } from '../session/passwordFlows';
import { LABELS, LOGIN_PATH, PAGE_TITLES } from '../messages';

/** /login/forgot-password: a user name; the server mails a reset link if it can. */
export function ForgotPasswordPage() {
  const [info, error, pending, submit] = useUnit([
    $forgotInfo,
    $forgotError,
    forgotFx.pending,
    forgotSubmitted,
  ]);
  const [user, setUser] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(user);
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
      <h1 id="forgot-title">{PAGE_TITLES.forgotPassword}</h1>
      <TextField
        label={LABELS.username}
        name="user"
        autoComplete="username"
        autoFocus
        required
        value={user}
        onChange={(e) => setUser(e.target.value)}
      />
      {info && <p role="status">{info}</p>}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={pending || !user}>
        {LABELS.sendResetLink}
      </button>
      <p>
        <Link to={LOGIN_PATH}>{LABELS.backToLogin}</Link>
      </p>
    </form>
  );
}

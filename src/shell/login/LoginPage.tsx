import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { TextField } from '../../design/components/TextField';
import { CheckboxField } from '../../design/components/CheckboxField';
import {
  $loginData,
  $loginError,
  $loginPending,
  loggedOut,
  loginErrorCleared,
  loginSubmitted,
} from '../session/model';
import type { ReturnState } from '../navigation/model';
import { FORGOT_PASSWORD_PATH, LABELS, PAGE_TITLES } from '../messages';

/** Username, password, remember me; arriving with ?logout=true logs the user out first. */
export function LoginPage() {
  const [loginData, error, pending, submit, clearError, logout] = useUnit([
    $loginData,
    $loginError,
    $loginPending,
    loginSubmitted,
    loginErrorCleared,
    loggedOut,
  ]);
  const [params] = useSearchParams();
  const logoutFlag = params.get('logout') === 'true';
  const returnTo = (useLocation().state as ReturnState | null)?.from;
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);

  useEffect(() => {
    if (logoutFlag) logout();
  }, [logoutFlag, logout]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit({
      user,
      password,
      rememberMe: loginData?.rememberMeEnabled ? rememberMe : undefined,
      returnTo,
    });
  };
  const edit = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    if (error) clearError();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <h1 id="login-title">{PAGE_TITLES.login}</h1>
      <TextField
        label={LABELS.username}
        name="user"
        autoComplete="username"
        autoFocus
        required
        value={user}
        onChange={edit(setUser)}
      />
      <TextField
        label={LABELS.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={edit(setPassword)}
      />
      {loginData?.rememberMeEnabled && (
        <CheckboxField
          label={LABELS.rememberMe}
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={pending || !user || !password}>
        {LABELS.logIn}
      </button>
      {loginData?.forgotPassword && (
        <p>
          <Link to={FORGOT_PASSWORD_PATH}>{LABELS.forgotPasswordLink}</Link>
        </p>
      )}
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $otpError, $otpPending, otpSubmitted } from '../session/mfa';
import { LABELS, LOGIN_PATH, MFA_TEXTS, PAGE_TITLES } from '../messages';
import { OtpField } from './OtpField';

/** /login/otp-login: the code from the authenticator app, after a right password. */
export function OtpLoginPage() {
  const [error, pending, submit] = useUnit([$otpError, $otpPending, otpSubmitted]);
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(code);
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="otp-title">
      <h1 id="otp-title">{PAGE_TITLES.otpLogin}</h1>
      <p>{MFA_TEXTS.otpPrompt}</p>
      <OtpField value={code} onChange={setCode} />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={pending || code.length !== 6}>
        {LABELS.verify}
      </button>
      <p>
        <Link to={LOGIN_PATH}>{LABELS.backToLogin}</Link>
      </p>
    </form>
  );
}

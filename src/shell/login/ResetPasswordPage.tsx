import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import {
  $newPasswordError,
  $newPasswordPending,
  $passwordOwner,
  $passwordRules,
  resetPageOpened,
  resetSubmitted,
} from '../session/passwordFlows';
import { LABELS, LOGIN_PATH, PAGE_TITLES } from '../messages';
import { NewPasswordForm } from './NewPasswordForm';

/** /auth/reset-password?key=…: the mailed link; the key is checked, then the new password signs in. */
export function ResetPasswordPage() {
  const key = useSearchParams()[0].get('key') ?? '';
  const [owner, rules, error, pending, opened, submit] = useUnit([
    $passwordOwner,
    $passwordRules,
    $newPasswordError,
    $newPasswordPending,
    resetPageOpened,
    resetSubmitted,
  ]);
  useEffect(() => {
    opened(key);
  }, [opened, key]);
  return (
    <section aria-labelledby="reset-title">
      <h1 id="reset-title">{PAGE_TITLES.resetPassword}</h1>
      <NewPasswordForm
        owner={owner}
        rules={rules}
        error={error}
        pending={pending}
        prompt={LABELS.resetFor}
        onSubmit={(entry) => submit({ ...entry, secret: key })}
      />
      <p>
        <Link to={LOGIN_PATH}>{LABELS.backToLogin}</Link>
      </p>
    </section>
  );
}

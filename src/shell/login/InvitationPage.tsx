import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import {
  $newPasswordError,
  $newPasswordPending,
  $passwordOwner,
  $passwordRules,
  invitationOpened,
  invitationSubmitted,
} from '../session/passwordFlows';
import { LABELS, PAGE_TITLES } from '../messages';
import { NewPasswordForm } from './NewPasswordForm';

/** /auth/invitation?token=…: an invited user's first password; an invalid token goes to login. */
export function InvitationPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const [owner, rules, error, pending, opened, submit] = useUnit([
    $passwordOwner,
    $passwordRules,
    $newPasswordError,
    $newPasswordPending,
    invitationOpened,
    invitationSubmitted,
  ]);
  useEffect(() => {
    opened(token);
  }, [opened, token]);
  return (
    <section aria-labelledby="invitation-title">
      <h1 id="invitation-title">{PAGE_TITLES.invitation}</h1>
      <NewPasswordForm
        owner={owner}
        rules={rules}
        error={error}
        pending={pending}
        prompt={LABELS.invitedAs}
        onSubmit={(entry) => submit({ ...entry, secret: token })}
      />
    </section>
  );
}

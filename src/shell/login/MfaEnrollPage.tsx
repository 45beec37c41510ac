import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import {
  $enrollPending,
  $enrollment,
  $otpError,
  enrollCodeSubmitted,
  enrollPageOpened,
} from '../session/mfa';
import { PAGE_TITLES } from '../messages';
import { MfaEnrollment } from './MfaEnrollment';

/** /login/mfa-enroll: MFA is enforced and this user has none yet; enrolling signs in. */
export function MfaEnrollPage() {
  const [offer, error, pending, opened, submit] = useUnit([
    $enrollment,
    $otpError,
    $enrollPending,
    enrollPageOpened,
    enrollCodeSubmitted,
  ]);
  useEffect(() => opened(), [opened]);
  return (
    <section aria-labelledby="mfa-enroll-title">
      <h1 id="mfa-enroll-title">{PAGE_TITLES.mfaEnroll}</h1>
      <MfaEnrollment offer={offer} error={error} pending={pending} onSubmit={submit} />
    </section>
  );
}

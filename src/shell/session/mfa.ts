import { createEffect, createEvent, createStore, sample } from 'effector';
import { mfaApi, type CurrentUser, type MfaEnrollment } from '../../api/auth';
import { ApiError, isServerFailure } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { navigateFx } from '../navigation/model';
import { LOGIN_PATH, OTP_FAILED } from '../messages';
import { signedIn } from './model';

/**
 * The second step of sign-in (spec 01 §4): the code of an enrolled user (otp-login), or the
 * enrollment a user without MFA must do when it is enforced (mfa-enroll). Both carry the
 * server's pending sign-in cookie; when it is gone (403) they go back to login.
 */
export const otpSubmitted = createEvent<string>();
export const enrollPageOpened = createEvent();
export const enrollCodeSubmitted = createEvent<string>();

export const verifyOtpFx = createEffect(mfaApi.verify);
export const fetchEnrollmentFx = createEffect(mfaApi.enrollment);
export const confirmEnrollmentFx = createEffect(mfaApi.confirmEnrollment);

export const $otpError = createStore<string | null>(null).reset(otpSubmitted, enrollCodeSubmitted);
export const $otpPending = verifyOtpFx.pending;
export const $enrollment = createStore<MfaEnrollment | null>(null)
  .on(fetchEnrollmentFx.doneData, (_, offer) => offer)
  .reset(enrollPageOpened);
export const $enrollPending = confirmEnrollmentFx.pending;

const statusOf = (error: unknown) => (error instanceof ApiError ? error.status : undefined);
/** A wrong code is 401; 403 means the pending sign-in is gone (expired, forged, locked). */
const codeFailures = [verifyOtpFx.failData, confirmEnrollmentFx.failData];

// when a code is submitted, verify it; when it is right, the user is signed in
sample({ clock: otpSubmitted, target: verifyOtpFx });
sample({ clock: verifyOtpFx.doneData, target: signedIn });

// when the enroll page opens, ask for a secret; a code confirms it and signs the user in
sample({ clock: enrollPageOpened, target: fetchEnrollmentFx });
sample({ clock: enrollCodeSubmitted, target: confirmEnrollmentFx });
sample({
  clock: confirmEnrollmentFx.doneData,
  filter: (answer): answer is CurrentUser => 'name' in answer,
  target: signedIn,
});

// when the pending sign-in is gone (expired, locked), go back to login
sample({
  clock: [
    sample({ clock: codeFailures, filter: (error) => statusOf(error) === 403 }),
    sample({
      clock: fetchEnrollmentFx.failData,
      filter: (error) => statusOf(error) === 401 || statusOf(error) === 403,
    }),
  ],
  fn: () => ({ to: LOGIN_PATH, replace: true }),
  target: navigateFx,
});

// when a code is wrong, say so (the server's words, else the spec's fallback)
sample({
  clock: [...codeFailures, fetchEnrollmentFx.failData],
  filter: (error) => statusOf(error) !== 403 && !isServerFailure(error),
  fn: (error) => errorMessage(error, OTP_FAILED),
  target: $otpError,
});

/** MFA messages, shared by the server, the console and the tests. */
export const MFA_MESSAGES = {
  invalidCode: 'The code is not valid. Enter the current code from your authenticator app.',
  notOffered: 'Open the enrollment again to get a new secret',
  signInExpired: 'The sign-in has expired. Sign in again.',
  disabled: 'MFA is turned off on this instance',
  enforced: 'MFA is required on this instance and cannot be removed',
  notEnrolled: 'MFA is not set up for this user',
  alreadyEnrolled: 'MFA is already set up for this user; remove it before enrolling again',
} as const;

/** The sign-in answer's `mfaStatus`: go to enroll, or to the code screen (spec 01 §4). */
export type MfaStatus = 'ENROLL' | 'VERIFY';

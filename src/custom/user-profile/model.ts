import { createEffect, createEvent, createStore, sample } from 'effector';
import { authApi, mfaApi, type MfaEnrollment, type MfaStatusView } from '../../api/auth';
import { profileApi, type IssuedToken } from '../../api/profile';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { fetchCurrentUserFx, loginSubmitted } from '../../shell/session/model';
import { PROFILE_MESSAGES, PROFILE_PATH } from './messages';

/** The user profile page: each section loads and saves on its own. */
export const profileOpened = createEvent();
export const emailSaved = createEvent<{ email: string; password: string }>();
export const passwordChangeSubmitted = createEvent<{
  userName: string;
  oldPassword: string;
  newPassword1: string;
  newPassword2: string;
}>();
export const apiKeyGenerated = createEvent();
export const apiKeyRevoked = createEvent();
export const identityTokenRequested = createEvent();
export const mfaSetupStarted = createEvent();
export const mfaCodeSubmitted = createEvent<string>();
export const mfaRemovalSubmitted = createEvent<string>();

export const saveEmailFx = createEffect(profileApi.updateEmail);
export const changePasswordFx = createEffect(authApi.changePassword);
export const fetchPolicyFx = createEffect(authApi.passwordPolicy);
export const fetchApiKeyFx = createEffect(profileApi.apiKey);
/** Creates the first key, or replaces the one there is. */
export const generateApiKeyFx = createEffect(async (hasKey: boolean) =>
  hasKey ? profileApi.regenerateApiKey() : profileApi.createApiKey(),
);
export const revokeApiKeyFx = createEffect(profileApi.revokeApiKey);
export const createTokenFx = createEffect(profileApi.createIdentityToken);
export const fetchMfaStatusFx = createEffect(mfaApi.status);
export const offerMfaFx = createEffect(mfaApi.enrollment);
export const confirmMfaFx = createEffect(mfaApi.confirmEnrollment);
export const removeMfaFx = createEffect(mfaApi.remove);

export const $passwordRules = createStore<string[]>([]).on(
  fetchPolicyFx.doneData,
  (_, { rules }) => rules,
);
export const $apiKey = createStore<string | null>(null)
  .on(fetchApiKeyFx.doneData, (_, { apiKey }) => apiKey ?? null)
  .on(generateApiKeyFx.doneData, (_, { apiKey }) => apiKey)
  .on(revokeApiKeyFx.done, () => null);
export const $identityToken = createStore<IssuedToken | null>(null)
  .on(createTokenFx.doneData, (_, token) => token)
  .reset(profileOpened);
export const $mfaStatus = createStore<MfaStatusView | null>(null).on(
  fetchMfaStatusFx.doneData,
  (_, status) => status,
);
export const $mfaOffer = createStore<MfaEnrollment | null>(null)
  .on(offerMfaFx.doneData, (_, offer) => offer)
  .reset(profileOpened, confirmMfaFx.done);

/** The last error of each section, cleared when that section acts again. */
export const $emailError = createStore<string | null>(null).reset(emailSaved, saveEmailFx.done);
export const $passwordError = createStore<string | null>(null).reset(passwordChangeSubmitted);
export const $mfaError = createStore<string | null>(null).reset(
  mfaCodeSubmitted,
  mfaRemovalSubmitted,
  mfaSetupStarted,
);

// when the page opens, load what each section shows
sample({
  clock: profileOpened,
  target: [fetchPolicyFx, fetchApiKeyFx, fetchMfaStatusFx],
});

// email: save with the current password; the toolbar's user shows the new one
sample({ clock: emailSaved, target: saveEmailFx });
sample({ clock: saveEmailFx.done, target: fetchCurrentUserFx });
sample({
  clock: saveEmailFx.done,
  fn: () => ({ kind: 'success' as const, text: PROFILE_MESSAGES.emailSaved }),
  target: notificationShown,
});
sample({ clock: saveEmailFx.failData, fn: (e) => errorMessage(e), target: $emailError });

// password: the server ends every session of the user, so sign in again with the new one
sample({
  clock: passwordChangeSubmitted,
  filter: ({ newPassword1, newPassword2 }) => newPassword1 === newPassword2,
  target: changePasswordFx,
});
sample({
  clock: passwordChangeSubmitted,
  filter: ({ newPassword1, newPassword2 }) => newPassword1 !== newPassword2,
  fn: () => 'Password fields must be equal',
  target: $passwordError,
});
sample({
  clock: changePasswordFx.done,
  fn: ({ params }) => ({
    user: params.userName,
    password: params.newPassword1,
    returnTo: PROFILE_PATH,
  }),
  target: loginSubmitted,
});
sample({
  clock: changePasswordFx.failData,
  fn: (e) => errorMessage(e, 'Failed to change password'),
  target: $passwordError,
});

// API key and identity token
sample({
  clock: apiKeyGenerated,
  source: $apiKey,
  fn: (key) => key !== null,
  target: generateApiKeyFx,
});
sample({ clock: apiKeyRevoked, target: revokeApiKeyFx });
sample({
  clock: revokeApiKeyFx.done,
  fn: () => ({ kind: 'success' as const, text: PROFILE_MESSAGES.apiKeyRevoked }),
  target: notificationShown,
});
sample({ clock: identityTokenRequested, target: createTokenFx });
sample({
  clock: [generateApiKeyFx.failData, revokeApiKeyFx.failData, createTokenFx.failData],
  fn: (e) => ({ kind: 'error' as const, text: errorMessage(e) }),
  target: notificationShown,
});

// MFA: offer a secret, confirm it with a code; or remove it with a code
sample({ clock: mfaSetupStarted, target: offerMfaFx });
sample({ clock: mfaCodeSubmitted, target: confirmMfaFx });
sample({ clock: mfaRemovalSubmitted, target: removeMfaFx });
sample({ clock: [confirmMfaFx.done, removeMfaFx.done], target: fetchMfaStatusFx });
sample({
  clock: confirmMfaFx.done,
  fn: () => ({ kind: 'success' as const, text: PROFILE_MESSAGES.mfaEnrolled }),
  target: notificationShown,
});
sample({
  clock: removeMfaFx.done,
  fn: () => ({ kind: 'success' as const, text: PROFILE_MESSAGES.mfaRemoved }),
  target: notificationShown,
});
sample({
  clock: [offerMfaFx.failData, confirmMfaFx.failData, removeMfaFx.failData],
  fn: (e) => errorMessage(e),
  target: $mfaError,
});

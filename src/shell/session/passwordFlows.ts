import { createEffect, createEvent, createStore, sample } from 'effector';
import { authApi } from '../../api/auth';
import { errorMessage } from '../../api/errorMessage';
import { navigateFx } from '../navigation/model';
import {
  EMAIL_NOT_SENT,
  PASSWORDS_MUST_BE_EQUAL,
  RESET_PASSWORD_FAILED,
  SESSION_EXPIRED_PATH,
} from '../messages';
import { loginSubmitted } from './model';

/**
 * The password flows that start from a mail (spec 01 §4 Password reset; docs/mail.md):
 * forgot password, reset with the mailed key, and an invitation's first password. Both of
 * the last two sign the user in with the new password.
 */
export const forgotSubmitted = createEvent<string>();
export const resetPageOpened = createEvent<string>();
export const invitationOpened = createEvent<string>();
export interface NewPassword {
  secret: string;
  password: string;
  retyped: string;
}
export const resetSubmitted = createEvent<NewPassword>();
export const invitationSubmitted = createEvent<NewPassword>();

export const forgotFx = createEffect(authApi.forgotPassword);
export const validateKeyFx = createEffect(authApi.validateResetKey);
export const resetFx = createEffect(authApi.resetPassword);
export const verifyInvitationFx = createEffect(authApi.verifyInvitation);
export const acceptInvitationFx = createEffect(authApi.acceptInvitation);
export const fetchRulesFx = createEffect(authApi.passwordPolicy);

/**
 * A failed flow says the spec's words ("Email wasn't sent", "Failed to reset the password"),
 * then the server's reason when it gave one (mail not set up, a spent link, the policy).
 */
export function failureText(words: string, error: unknown): string {
  const reason = errorMessage(error, words);
  return reason === words ? words : `${words}: ${reason}`;
}

export const $forgotInfo = createStore<string | null>(null)
  .on(forgotFx.doneData, (_, { info }) => info)
  .reset(forgotSubmitted);
export const $forgotError = createStore<string | null>(null)
  .on(forgotFx.failData, (_, error) => failureText(EMAIL_NOT_SENT, error))
  .reset(forgotSubmitted);
/** Whose password the page sets: from the key or the invitation token. */
export const $passwordOwner = createStore<string | null>(null)
  .on(validateKeyFx.doneData, (_, { user }) => user)
  .on(verifyInvitationFx.doneData, (_, { username }) => username)
  .reset(resetPageOpened, invitationOpened);
export const $newPasswordError = createStore<string | null>(null)
  .on([validateKeyFx.failData, resetFx.failData, acceptInvitationFx.failData], (_, error) =>
    failureText(RESET_PASSWORD_FAILED, error),
  )
  .reset(resetPageOpened, invitationOpened, resetSubmitted, invitationSubmitted);
export const $passwordRules = createStore<string[]>([]).on(
  fetchRulesFx.doneData,
  (_, { rules }) => rules,
);
export const $newPasswordPending = createStore(false)
  .on([resetFx, acceptInvitationFx], () => true)
  .on([resetFx.finally, acceptInvitationFx.finally], () => false);

const equal = ({ password, retyped }: NewPassword) => password === retyped;

sample({ clock: forgotSubmitted, target: forgotFx });

// when the reset page opens, check the key and show whose password it is
sample({ clock: resetPageOpened, target: [validateKeyFx, fetchRulesFx] });
sample({ clock: invitationOpened, target: [verifyInvitationFx, fetchRulesFx] });
// an invitation link that does not check out goes to login with the logout flag (spec 01 §5)
sample({
  clock: verifyInvitationFx.fail,
  fn: () => ({ to: SESSION_EXPIRED_PATH.replace('&fromUnauthorized=true', ''), replace: true }),
  target: navigateFx,
});

// when the new password is typed twice alike, set it; then sign in with it
sample({
  clock: [resetSubmitted, invitationSubmitted],
  filter: (entry) => !equal(entry),
  fn: () => PASSWORDS_MUST_BE_EQUAL,
  target: $newPasswordError,
});
sample({
  clock: resetSubmitted,
  filter: equal,
  fn: ({ secret, password }) => ({ key: secret, password }),
  target: resetFx,
});
sample({
  clock: invitationSubmitted,
  filter: equal,
  fn: ({ secret, password }) => ({ token: secret, password }),
  target: acceptInvitationFx,
});
sample({
  clock: [resetFx.done, acceptInvitationFx.done],
  fn: ({ params, result }) => ({ user: result.user, password: params.password }),
  target: loginSubmitted,
});

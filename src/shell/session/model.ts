import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import {
  authApi,
  type Credentials,
  type CurrentUser,
  type Footer,
  isMfaChallenge,
  type LoginRelatedData,
  type PasswordChange,
} from '../../api/auth';
import { ApiError, isServerFailure } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { onSessionChangedElsewhere, setConsoleUser } from '../../api/client';
import { navigateFx } from '../navigation/model';
import { settingsSaved } from '../../engine/settings/model';
import { homePathFor, isAnonymous, safeReturnPath } from '../access';
import {
  CHANGE_PASSWORD_FAILED,
  IDLE_TIMEOUT_MS,
  PASSWORDS_MUST_BE_EQUAL,
  MFA_ENROLL_PATH,
  OTP_LOGIN_PATH,
  SESSION_EXPIRED_PATH,
  changePasswordPath,
} from '../messages';

/** What the console assumes until /ui/auth/current says otherwise, or when it cannot be asked. */
const ANONYMOUS: CurrentUser = { name: 'anonymous', anonymous: true, admin: false };
const CREDENTIALS_EXPIRED = 'CREDENTIALS_EXPIRED';

export const appStarted = createEvent();
export const loginSubmitted = createEvent<Credentials & { returnTo?: string }>();
/** Every factor passed: the password alone, or the password then an MFA code. */
export const signedIn = createEvent<CurrentUser>();
export const loginErrorCleared = createEvent();
export const loggedOut = createEvent();
export const passwordChangeSubmitted = createEvent<PasswordChange>();
/** Any click, key or pointer move, with its time (Date.now()), throttled by the watcher. */
export const userActivityDetected = createEvent<number>();
export const sessionCheckRequested = createEvent();
export const sessionExpired = createEvent();

export const fetchCurrentUserFx = createEffect(authApi.current);
export const fetchFooterFx = createEffect(authApi.footer);
export const fetchLoginDataFx = createEffect(authApi.loginRelatedData);
export const loginFx = createEffect(authApi.login);
export const logoutFx = createEffect(authApi.logout);
export const changePasswordFx = createEffect(authApi.changePassword);
export const checkSessionFx = createEffect(authApi.current);

/** null until the first answer of /ui/auth/current. */
export const $currentUser = createStore<CurrentUser | null>(null)
  .on(fetchCurrentUserFx.doneData, (_, user) => user)
  // Asked at start and after logout only: without an answer, nobody is signed in.
  .on(fetchCurrentUserFx.fail, () => ANONYMOUS)
  .on(signedIn, (_, user) => user)
  // An expired session is not applied here: the login page's logout flag does it, so that
  // route guards do not race the redirect that carries the flag.
  .on(checkSessionFx.doneData, (previous, user) => (user.anonymous ? previous : user));
export const $footer = createStore<Footer | null>(null).on(
  fetchFooterFx.doneData,
  (_, footer) => footer,
);
export const $loginData = createStore<LoginRelatedData | null>(null).on(
  fetchLoginDataFx.doneData,
  (_, data) => data,
);
export const $bootstrapped = $currentUser.map((user) => user !== null);
export const $anonAccessEnabled = combine(
  $currentUser,
  $footer,
  (user, footer) => user?.anonAccessEnabled ?? footer?.anonAccessEnabled ?? false,
);
export const $isAnonymous = $currentUser.map(isAnonymous);
/** Changes only when who is signed in changes, not on every refetch of the same user. */
export const $identity = $currentUser.map((user) =>
  user ? `${user.name}|${user.admin}|${user.anonymous}` : null,
);

export const $returnTo = createStore<string | null>(null)
  // Set by every submission, so a stale target never outlives the login it was for.
  .on(loginSubmitted, (_, { returnTo }) => safeReturnPath(returnTo) ?? null);
export const $loginError = createStore<string | null>(null).reset(
  loginSubmitted,
  loginErrorCleared,
  loginFx.done,
);
export const $loginPending = loginFx.pending;
export const $changePasswordError = createStore<string | null>(null).reset(passwordChangeSubmitted);
export const $changePasswordPending = combine(
  changePasswordFx.pending,
  loginFx.pending,
  (a, b) => a || b,
);
const $lastActivityAt = createStore<number | null>(null);

const isCredentialsExpired = (error: unknown) =>
  error instanceof ApiError && error.code === CREDENTIALS_EXPIRED;

// when the app starts, ask who the user is, the footer and the login options
sample({ clock: appStarted, target: [fetchCurrentUserFx, fetchFooterFx, fetchLoginDataFx] });

// when a settings document is saved, ask the footer again: it carries the server name,
// the custom message banner and anonymous access, which an admin may just have changed
sample({ clock: settingsSaved, target: fetchFooterFx });

// when the login form is submitted, log in with its credentials
sample({
  clock: loginSubmitted,
  fn: ({ user, password, rememberMe }) => ({ user, password, rememberMe }),
  target: loginFx,
});

// when login answers a user, the user is signed in
sample({
  clock: loginFx.doneData,
  filter: (answer): answer is CurrentUser => !isMfaChallenge(answer),
  target: signedIn,
});

// when login asks for MFA, go to the code page, or to enrollment when the user has none yet
sample({
  clock: loginFx.doneData,
  filter: isMfaChallenge,
  fn: (challenge) => ({ to: challenge.mfaStatus === 'ENROLL' ? MFA_ENROLL_PATH : OTP_LOGIN_PATH }),
  target: navigateFx,
});

// when signed in, go back where the user wanted to go, else to the role's home (an admin's
// landing waits for the onboarding state: shell/onboarding/model.ts)
sample({
  clock: signedIn,
  source: $returnTo,
  filter: (returnTo, user) => returnTo !== null || user.admin !== true,
  fn: (returnTo, user) => ({ to: returnTo ?? homePathFor(user, false), replace: true }),
  target: navigateFx,
});

// when login fails with expired credentials, go to change password for that user
sample({
  clock: loginFx.fail,
  filter: ({ error }) => isCredentialsExpired(error),
  fn: ({ params }) => ({ to: changePasswordPath(params.user) }),
  target: navigateFx,
});

// when login fails otherwise, show the parsed message (server failures get the error dialog)
sample({
  clock: loginFx.failData,
  filter: (error) => !isCredentialsExpired(error) && !isServerFailure(error),
  fn: (error) => errorMessage(error),
  target: $loginError,
});

// when the user logs out, end the session, then ask again who the user is now
sample({ clock: loggedOut, target: logoutFx });
sample({ clock: logoutFx.finally, target: fetchCurrentUserFx });

// when the two new passwords differ, say so and do not call the server
sample({
  clock: passwordChangeSubmitted,
  filter: ({ newPassword1, newPassword2 }) => newPassword1 !== newPassword2,
  fn: () => PASSWORDS_MUST_BE_EQUAL,
  target: $changePasswordError,
});

// when they are equal, change the password
sample({
  clock: passwordChangeSubmitted,
  filter: ({ newPassword1, newPassword2 }) => newPassword1 === newPassword2,
  target: changePasswordFx,
});

// when the password is changed, log in with the new one
sample({
  clock: changePasswordFx.done,
  fn: ({ params }) => ({ user: params.userName, password: params.newPassword1 }),
  target: loginFx,
});

// when changing the password fails, show why, or the spec's fallback text
sample({
  clock: changePasswordFx.failData,
  fn: (error) => errorMessage(error, CHANGE_PASSWORD_FAILED),
  target: $changePasswordError,
});

// when the user does something, measure how long they were idle (before recording this activity)
const activityMeasured = sample({
  clock: userActivityDetected,
  source: { last: $lastActivityAt, anonymous: $isAnonymous },
  fn: ({ last, anonymous }, now) => ({
    now,
    idleTooLong: !anonymous && last !== null && now - last >= IDLE_TIMEOUT_MS,
  }),
});
$lastActivityAt.on(activityMeasured, (_, { now }) => now);

// when a signed-in user comes back after the idle timeout, check the session is still alive
sample({
  clock: activityMeasured,
  filter: ({ idleTooLong }) => idleTooLong,
  target: sessionCheckRequested,
});
sample({ clock: sessionCheckRequested, target: checkSessionFx });

// when the session check finds the user anonymous, the session has expired
sample({
  clock: checkSessionFx.doneData,
  source: $isAnonymous,
  filter: (wasAnonymous, user) => !wasAnonymous && user.anonymous,
  target: sessionExpired,
});

// when the session expired, go to login with the logout flag, remembering the page
sample({
  clock: sessionExpired,
  fn: () => ({ to: SESSION_EXPIRED_PATH, rememberCurrent: true }),
  target: navigateFx,
});

/** Another tab signed in as someone else: a reload starts the console as that user. */
export const userChangedElsewhere = createEvent();
export const reloadFx = createEffect(() => window.location.reload());
export const consoleUserShownFx = createEffect((user: CurrentUser | null) =>
  setConsoleUser(user && !user.anonymous ? user.name : undefined),
);
let stopWatchingSession: (() => void) | undefined;
export const watchSessionElsewhereFx = createEffect(() => {
  stopWatchingSession?.();
  stopWatchingSession = onSessionChangedElsewhere((change) =>
    change === 'ended' ? sessionExpired() : userChangedElsewhere(),
  );
});

// when the console starts, listen for the server's 420 and 333 answers
sample({ clock: appStarted, target: watchSessionElsewhereFx });
// when the user shown changes, every call names it to the server
sample({ clock: $currentUser.updates, target: consoleUserShownFx });
// when another tab signed in as another user, reload as that user
sample({ clock: userChangedElsewhere, target: reloadFx });

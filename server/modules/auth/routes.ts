import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DepotConfig } from '../../config.ts';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../http/identity.ts';
import type { Services } from '../../services.ts';
import { currentUserView } from './current-user.ts';
import type { AuthenticatedUser, NewSession } from './service.ts';
import { setPendingSignIn } from '../mfa/routes.ts';
import { policyRules } from './password-policy.ts';

const loginBody = {
  type: 'object',
  additionalProperties: false,
  required: ['user', 'password'],
  properties: {
    user: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
    type: { type: 'string', maxLength: 32 },
  },
};

const changePasswordBody = {
  type: 'object',
  additionalProperties: false,
  required: ['userName', 'oldPassword', 'newPassword1', 'newPassword2'],
  properties: {
    userName: { type: 'string', minLength: 1, maxLength: 64 },
    oldPassword: { type: 'string', minLength: 1, maxLength: 1024 },
    newPassword1: { type: 'string', minLength: 1, maxLength: 128 },
    newPassword2: { type: 'string', minLength: 1, maxLength: 128 },
  },
};

/** Sets the session cookie (HttpOnly) and the CSRF cookie the console's scripts echo. */
export function setSessionCookies(reply: FastifyReply, session: NewSession, remember: boolean) {
  const common = { path: '/', sameSite: 'strict' as const, secure: 'auto' as const };
  const expires = remember ? session.expiresAt : undefined;
  reply.setCookie(SESSION_COOKIE, session.token, { ...common, httpOnly: true, expires });
  // Readable by the console's scripts, which echo it in the X-CSRF-Token header.
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false, expires });
}

/** Opens the session of a user who passed every factor, and answers who is signed in. */
export async function signIn(
  reply: FastifyReply,
  services: Services,
  user: AuthenticatedUser,
  remember: boolean,
) {
  const session = await services.auth.openSession(user.id, remember);
  setSessionCookies(reply, session, remember);
  reply.request.log.info({ user: user.name }, 'signed in');
  return currentUserView(services, {
    userId: user.id,
    name: user.name,
    admin: user.admin,
    anonymous: false,
    via: 'session',
  });
}

/** Sign-in, sign-out, the current user and the data the login screen needs (spec 01 §7 Auth). */
export async function authRoutes(
  app: FastifyInstance,
  { services, config }: { services: Services; config: DepotConfig },
) {
  const { auth, securityConfig } = services;

  app.post<{ Body: { user: string; password: string }; Querystring: { rememberMe?: boolean } }>(
    '/ui/auth/login',
    {
      config: { permission: 'public' },
      schema: {
        body: loginBody,
        querystring: { type: 'object', properties: { rememberMe: { type: 'boolean' } } },
      },
    },
    async (request, reply) => {
      const { rememberMeEnabled } = await securityConfig.get();
      const remember = rememberMeEnabled && request.query.rememberMe === true;
      const user = await app.signInThrottled(request.ip, request.body.user, () =>
        auth.checkSignIn(request.body.user, request.body.password, request.ip),
      );
      const mfaStatus = await services.mfa.signInStep(user.id);
      if (mfaStatus) {
        // The password was right; the session waits for the code (docs/mfa.md).
        await setPendingSignIn(reply, services, { userId: user.id, remember });
        request.log.info({ user: user.name, mfaStatus }, 'password accepted, MFA next');
        return { mfaStatus, mfaAuthenticator: 'GOOGLE' };
      }
      return signIn(reply, services, user, remember);
    },
  );

  app.post('/ui/auth/logout', { config: { permission: 'public' } }, async (request, reply) => {
    if (request.principal.sessionToken) await auth.endSession(request.principal.sessionToken);
    reply.clearCookie(SESSION_COOKIE, { path: '/' }).clearCookie(CSRF_COOKIE, { path: '/' });
    return { loggedOut: true };
  });

  app.get('/ui/auth/current', { config: { permission: 'public' } }, async (request) =>
    currentUserView(services, request.principal),
  );

  app.get('/ui/auth/screen/footer', { config: { permission: 'public' } }, async () => ({
    // The general configuration's name, else DEPOT_SERVER_NAME (docs/general-config.md).
    serverName: (await services.generalConfig.get()).serverName?.trim() || config.serverName,
    // The banner every page shows, visitors' too, when an admin turned it on.
    customMessage: await services.generalConfig.customMessage(),
    versionID: services.version.version,
    revision: services.version.revision,
    buildNumber: services.version.revision,
    // Every feature is on until an admin installs a license (ARCHITECTURE.md, editions).
    licenseType: 'ENTERPRISE_PLUS',
    isAol: false,
    anonAccessEnabled: (await securityConfig.get()).anonAccessEnabled,
  }));

  app.get('/ui/auth/loginRelatedData', { config: { permission: 'public' } }, async () => {
    // The link shows only when a mail can actually go out.
    const mailReady = await services.mail.ready().then(
      () => true,
      () => false,
    );
    return {
      forgotPassword: mailReady,
      canResetPassword: mailReady,
      rememberMeEnabled: (await securityConfig.get()).rememberMeEnabled,
      ssoProviderLink: null,
      oauthProviders: [],
    };
  });

  // Public: the change-password page shows the rules before anyone is signed in.
  app.get('/ui/auth/passwordPolicy', { config: { permission: 'public' } }, async () => ({
    rules: policyRules((await securityConfig.get()).passwordPolicy),
  }));

  app.post<{
    Body: { userName: string; oldPassword: string; newPassword1: string; newPassword2: string };
  }>(
    '/ui/auth/changePassword',
    { config: { permission: 'public' }, schema: { body: changePasswordBody } },
    async (request) => {
      const { userName, oldPassword, newPassword1, newPassword2 } = request.body;
      // It checks a password anyone may send: guesses here wait as sign-in's do.
      await app.signInThrottled(request.ip, userName, () =>
        auth.changePassword(userName, oldPassword, newPassword1, newPassword2, request.ip),
      );
      request.log.info({ user: userName }, 'password changed');
      return { passwordChanged: true };
    },
  );
}

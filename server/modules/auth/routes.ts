import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DepotConfig } from '../../config.ts';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../http/identity.ts';
import type { Services } from '../../services.ts';
import { currentUserView } from './current-user.ts';
import type { NewSession } from './service.ts';

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

function setSessionCookies(reply: FastifyReply, session: NewSession, remember: boolean) {
  const common = { path: '/', sameSite: 'strict' as const, secure: 'auto' as const };
  const expires = remember ? session.expiresAt : undefined;
  reply.setCookie(SESSION_COOKIE, session.token, { ...common, httpOnly: true, expires });
  // Readable by the console's scripts, which echo it in the X-CSRF-Token header.
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false, expires });
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
      const remember = request.query.rememberMe === true;
      const { user, session } = await auth.login(
        request.body.user,
        request.body.password,
        remember,
      );
      setSessionCookies(reply, session, remember);
      request.log.info({ user: user.name }, 'signed in');
      return currentUserView(services, {
        userId: user.id,
        name: user.name,
        admin: user.admin,
        anonymous: false,
        via: 'session',
      });
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
    serverName: config.serverName,
    versionID: services.version.version,
    revision: services.version.revision,
    buildNumber: services.version.revision,
    // Every feature is on until an admin installs a license (ARCHITECTURE.md, editions).
    licenseType: 'ENTERPRISE_PLUS',
    isAol: false,
    anonAccessEnabled: (await securityConfig.get()).anonAccessEnabled,
  }));

  app.get('/ui/auth/loginRelatedData', { config: { permission: 'public' } }, async () => ({
    forgotPassword: false,
    rememberMeEnabled: true,
    ssoProviderLink: null,
    oauthProviders: [],
    canResetPassword: false,
  }));

  app.post<{
    Body: { userName: string; oldPassword: string; newPassword1: string; newPassword2: string };
  }>(
    '/ui/auth/changePassword',
    { config: { permission: 'public' }, schema: { body: changePasswordBody } },
    async (request) => {
      const { userName, oldPassword, newPassword1, newPassword2 } = request.body;
      await auth.changePassword(userName, oldPassword, newPassword1, newPassword2);
      request.log.info({ user: userName }, 'password changed');
      return { passwordChanged: true };
    },
  );
}

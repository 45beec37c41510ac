import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Conflict, Forbidden, Unauthorized } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { signIn } from '../auth/routes.ts';
import { AUTH_MESSAGES } from '../auth/messages.ts';
import { requirePasswordSignIn } from '../auth/password-sign-in.ts';
import { MFA_MESSAGES as M } from './messages.ts';
import { MFA_PENDING_COOKIE, PENDING_SECONDS, type PendingSignIn } from './pending-sign-in.ts';

const PENDING_COOKIE_OPTIONS = {
  path: '/',
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: 'auto' as const,
};

const otpBody = {
  type: 'object',
  additionalProperties: false,
  required: ['otp'],
  properties: { otp: { type: 'string', minLength: 1, maxLength: 16 } },
};

type OtpRequest = { Body: { otp: string } };

/** Between the password and the code: a signed cookie, no session yet. */
export async function setPendingSignIn(
  reply: FastifyReply,
  services: Services,
  pending: PendingSignIn,
) {
  const token = await services.mfa.pendingSignIns.issue(pending);
  reply.setCookie(MFA_PENDING_COOKIE, token, {
    ...PENDING_COOKIE_OPTIONS,
    maxAge: PENDING_SECONDS,
  });
}

/** The pending sign-in the request carries, refused (403, back to login) when there is none. */
async function pendingSignIn(request: FastifyRequest, services: Services) {
  const pending = await services.mfa.pendingSignIns.read(request.cookies[MFA_PENDING_COOKIE]);
  const user = pending && (await services.auth.userForSignIn(pending.userId));
  if (!pending || !user) throw new Forbidden(M.signInExpired);
  return { pending, user };
}

/**
 * Whose enrollment this is: the signed-in user (the profile), or a sign-in waiting for MFA
 * that the policy makes enroll. Someone already enrolled cannot enroll anew from a pending
 * sign-in: that would skip the code.
 */
async function enrollingUser(request: FastifyRequest, services: Services) {
  if (!request.principal.anonymous && request.principal.userId !== undefined) {
    requirePasswordSignIn(request.principal);
    return { userId: request.principal.userId, pending: undefined };
  }
  if (!request.cookies[MFA_PENDING_COOKIE])
    throw new Unauthorized(AUTH_MESSAGES.authenticationRequired);
  const { pending, user } = await pendingSignIn(request, services);
  if ((await services.mfa.signInStep(user.id)) !== 'ENROLL') throw new Forbidden(M.signInExpired);
  return { userId: user.id, pending: { ...pending, user } };
}

/** MFA with TOTP (spec 01 §4 Sign-in, §7 Auth and Users; docs/mfa.md), under /ui/api/v1. */
export async function mfaRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { mfa } = services;
  const publicRoute = { permission: 'public' as const };

  app.get('/auth/mfa/enroll', { config: publicRoute }, async (request) => {
    const { userId } = await enrollingUser(request, services);
    if (await mfa.enrolled(userId)) throw new Conflict(M.alreadyEnrolled);
    return mfa.offerEnrollment(userId);
  });

  app.post<OtpRequest>(
    '/auth/mfa/enroll',
    { config: publicRoute, schema: { body: otpBody } },
    async (request, reply) => {
      const { userId, pending } = await enrollingUser(request, services);
      await mfa.confirmEnrollment(userId, request.body.otp, request.ip);
      request.log.info({ userId }, 'MFA enrolled');
      if (!pending) return { mfaEnrolled: true };
      reply.clearCookie(MFA_PENDING_COOKIE, { path: '/' });
      return signIn(reply, services, pending.user, pending.remember);
    },
  );

  app.post<OtpRequest>(
    '/auth/mfa/verify',
    { config: publicRoute, schema: { body: otpBody } },
    async (request, reply) => {
      const { pending, user } = await pendingSignIn(request, services);
      await app.signInThrottled(request.ip, user.name, () =>
        mfa.verify(user.id, request.body.otp, request.ip),
      );
      reply.clearCookie(MFA_PENDING_COOKIE, { path: '/' });
      return signIn(reply, services, user, pending.remember);
    },
  );

  app.get('/auth/mfa/status', { config: { permission: 'user' } }, async (request) => {
    const { mfa: policy } = await services.securityConfig.get();
    const enrolled =
      request.principal.userId !== undefined && (await mfa.enrolled(request.principal.userId));
    return { enabled: policy.enabled, enforced: policy.enforced, enrolled };
  });

  app.post<OtpRequest>(
    '/auth/mfa/remove',
    { config: { permission: 'user' }, schema: { body: otpBody } },
    async (request) => {
      const userId = request.principal.userId;
      if (userId === undefined) throw new Forbidden(M.notEnrolled);
      requirePasswordSignIn(request.principal);
      await mfa.remove(userId, request.body.otp, request.ip);
      request.log.info({ userId }, 'MFA removed by its user');
      return { mfaEnrolled: false };
    },
  );

  app.post<{ Params: { name: string } }>(
    '/auth/mfa/resetMfaStatus/:name',
    {
      config: { permission: 'admin' },
      schema: {
        params: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request) => {
      // An admin resets another user's second factor; its own only after a password.
      if (request.params.name.toLowerCase() === request.principal.name.toLowerCase())
        requirePasswordSignIn(request.principal);
      await mfa.reset(request.params.name);
      request.log.info({ user: request.params.name, by: request.principal.name }, 'MFA reset');
      return { name: request.params.name, mfaEnrolled: false };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { MAIL_MESSAGES as M } from './messages.ts';
import { updateBody } from '../entities/body-schemas.ts';

const admin = { permission: 'admin' as const };
const open = { permission: 'public' as const };
const key = { type: 'string', minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' };
const password = { type: 'string', minLength: 1, maxLength: 128 };
const userName = { type: 'string', minLength: 1, maxLength: 64 };
const object = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/**
 * The mail settings' test button (the settings themselves are the schema engine's), and the flows that mail: forgot password, reset by
 * key, invitations (spec 01 §7 Auth and Users; docs/mail.md). Under /ui/api/v1.
 */
export async function mailRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { mail, passwordFlows } = services;
  // The form as it stands, checked as a save of it would be, and whom to send to.
  const settingsBody = updateBody(services.schemas.entities.get('mail-settings')!);

  app.post<{ Body: Record<string, unknown> & { to: string } }>(
    '/ui/mail/test',
    {
      config: admin,
      schema: {
        body: {
          ...settingsBody,
          required: ['to'],
          properties: {
            ...(settingsBody.properties as object),
            to: { type: 'string', minLength: 3, maxLength: 254, format: 'email' },
          },
        },
      },
    },
    async (request) => {
      const { to, ...draft } = request.body;
      await mail.sendTest(to, draft);
      return { info: M.testSent(to) };
    },
  );

  app.post<{ Body: { user: string } }>(
    '/ui/auth/forgotpassword',
    { config: open, schema: { body: object({ user: userName }, ['user']) } },
    async (request) => {
      await passwordFlows.forgotPassword(request.body.user, request.log);
      return { info: M.resetSent };
    },
  );

  app.get<{ Querystring: { key: string } }>(
    '/ui/auth/validatetoken',
    { config: open, schema: { querystring: object({ key }, ['key']) } },
    async (request) => passwordFlows.validateResetKey(request.query.key),
  );

  app.post<{ Querystring: { key: string }; Body: { password: string; user?: string } }>(
    '/ui/auth/resetpassword',
    {
      config: open,
      schema: {
        querystring: object({ key }, ['key']),
        body: object({ password, user: userName }, ['password']),
      },
    },
    async (request) => {
      const user = await passwordFlows.resetPassword(request.query.key, request.body.password);
      request.log.info({ user }, 'password reset with a mailed key');
      return { info: M.passwordReset, user };
    },
  );

  app.post<{ Body: { name: string; email: string; groups?: string[] } }>(
    '/access/entities/users/invite',
    {
      config: admin,
      schema: {
        body: object(
          {
            name: { ...userName, pattern: '^[A-Za-z0-9._@-]+$' },
            email: { type: 'string', minLength: 3, maxLength: 254, format: 'email' },
            groups: { type: 'array', maxItems: 1000, items: userName },
          },
          ['name', 'email'],
        ),
      },
    },
    async (request, reply) => {
      const created = await passwordFlows.invite(request.body);
      request.log.info({ user: created.name, by: request.principal.name }, 'user invited');
      return reply.status(201).send({ ...created, info: M.invited(created.email) });
    },
  );

  app.post<{ Body: { userName: string } }>(
    '/access/entities/users/invited/reInvite',
    { config: admin, schema: { body: object({ userName }, ['userName']) } },
    async (request) => {
      const { email } = await passwordFlows.reInvite(request.body.userName);
      return { info: M.invited(email) };
    },
  );

  app.post<{ Body: { token: string } }>(
    '/access/token/verify',
    { config: open, schema: { body: object({ token: key }, ['token']) } },
    async (request) => passwordFlows.verifyInvitation(request.body.token),
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/access/entities/users/invited/setPassword',
    { config: open, schema: { body: object({ token: key, password }, ['token', 'password']) } },
    async (request) => {
      const user = await passwordFlows.acceptInvitation(request.body.token, request.body.password);
      request.log.info({ user }, 'invitation accepted');
      return { user };
    },
  );
}

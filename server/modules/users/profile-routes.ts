import type { FastifyInstance } from 'fastify';
import { Forbidden } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { confirmOwnPassword, WRONG_PASSWORD } from './confirm-password.ts';

/** What a user may change about themselves: the email, nothing that grants anything. */
const profileBody = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254, format: 'email' },
    /** The current password: a borrowed session must not be enough to redirect mail. */
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
};

export const PROFILE_MESSAGES = {
  notUpdatable: 'Your profile cannot be updated. Please contact your system administrator.',
  updated: 'Profile updated successfully',
  wrongPassword: WRONG_PASSWORD,
} as const;

/** The user profile's own calls (admin/artifactory/user_profile), under /ui/api/v1. */
export async function profileRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.put<{ Body: { email: string; password: string } }>(
    '/ui/userProfile',
    { config: { permission: 'user' }, schema: { body: profileBody } },
    async (request) => {
      const { principal } = request;
      // A token or API key stands for a user but is not the user typing a password.
      if (principal.via !== 'session' && principal.via !== 'basic') {
        throw new Forbidden(PROFILE_MESSAGES.notUpdatable);
      }
      const me = await services.users.get(principal.name);
      if (!me.profileUpdatable) throw new Forbidden(PROFILE_MESSAGES.notUpdatable);
      await confirmOwnPassword(app, services, request, request.body.password);
      await services.users.update(principal.name, { email: request.body.email }, principal);
      request.log.info({ user: principal.name }, 'profile updated');
      return { info: PROFILE_MESSAGES.updated };
    },
  );
}

import type { Logger } from 'pino';
import type { DepotConfig } from './config.ts';
import type { Services } from './services.ts';

export const DEFAULT_ADMIN = { name: 'admin', password: 'password', email: 'admin@localhost' };

/**
 * First start: creates `admin`. With the default password it is marked expired, so the first
 * sign-in must choose a new one; DEPOT_ADMIN_PASSWORD (or its hash, DEPOT_ADMIN_PASSWORD_HASH)
 * gives a ready password for automation.
 */
export async function ensureAdminUser(services: Services, config: DepotConfig, logger: Logger) {
  const anyUser = await services.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return;
  const { adminPassword, adminPasswordHash } = config;
  const passwordExpired = adminPassword === undefined && adminPasswordHash === undefined;
  await services.users.create(
    {
      name: DEFAULT_ADMIN.name,
      email: DEFAULT_ADMIN.email,
      password: adminPasswordHash ? undefined : (adminPassword ?? DEFAULT_ADMIN.password),
      admin: true,
      groups: [],
    },
    { passwordExpired, passwordHash: adminPasswordHash },
  );
  logger.info({ user: DEFAULT_ADMIN.name, passwordExpired }, 'created the initial administrator');
}

/**
 * DEPOT_UNLOCK_USERS: lifts the sign-in locks of the named users at start, from every
 * address, for when every administrator is locked out (docs/security.md, "Lockout").
 */
export async function unlockUsersAtStart(services: Services, config: DepotConfig, logger: Logger) {
  if (config.unlockUsers.length === 0) return;
  const lifted = await services.signInLocks.unlock(config.unlockUsers);
  logger.warn(
    { users: config.unlockUsers, locks: lifted },
    'lifted the sign-in locks of the users DEPOT_UNLOCK_USERS names',
  );
}

import type { CurrentUser } from '../../api/auth';

/** The current-user answers the shell's tests sign in as. */
export const adminUser: CurrentUser = { name: 'admin', admin: true, anonymous: false };
export const plainUser: CurrentUser = { name: 'jo', admin: false, anonymous: false };
export const anonymousUser: CurrentUser = {
  name: 'anonymous',
  admin: false,
  anonymous: true,
  anonAccessEnabled: false,
};

import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';

/** The answer of /ui/auth/current (and of login): who the console is talking to. */
export async function currentUserView(services: Services, principal: Principal) {
  if (principal.anonymous) {
    const { anonAccessEnabled } = await services.securityConfig.get();
    return { name: 'anonymous', anonymous: true, admin: false, anonAccessEnabled };
  }
  const user = await services.users.get(principal.name);
  return {
    ...user,
    // Effective: an admin group makes its members admins too.
    admin: principal.admin,
    anonymous: false,
    anonAccessEnabled: (await services.securityConfig.get()).anonAccessEnabled,
    // Whether the console offers the permissions screens: to admins, and to a user who
    // manages a permission target (spec 01 §6).
    canManagePermissions:
      principal.admin || (await services.access.managedBy(principal)).length > 0,
  };
}

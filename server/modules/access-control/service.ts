import type { Principal } from '../../http/permissions.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { ADMIN_ACCESS, NO_ACCESS, type AccessDecider } from './decider.ts';

/** Signed-in users (and anonymous, when allowed) read everything and change nothing. */
const READ_EVERYTHING: AccessDecider = {
  admin: false,
  can: (action) => action === 'read',
  readableRepoKeys: () => 'all',
};

/**
 * The one place that decides who may do what with artifacts (docs/access-control.md). Routes,
 * search, listings and the tree ask `forPrincipal(request.principal)` once per request.
 */
export function createAccessService(deps: { securityConfig: SecurityConfigService }) {
  return {
    async forPrincipal(principal: Principal): Promise<AccessDecider> {
      if (principal.admin) return ADMIN_ACCESS;
      if (principal.anonymous) {
        const { anonAccessEnabled } = await deps.securityConfig.get();
        if (!anonAccessEnabled) return NO_ACCESS;
      }
      return READ_EVERYTHING;
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;

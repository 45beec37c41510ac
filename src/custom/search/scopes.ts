import { SEARCH_LABELS } from './messages';

export type SearchScope = keyof typeof SEARCH_LABELS.scopes;

/** What the toolbar's scopes depend on (spec 01 §2 "Toolbar search scopes"). */
export interface ScopeConditions {
  admin: boolean;
  /** Companion services running beside the repository (the spec's microservices answer). */
  services: { distribution: boolean; scanning: boolean; pipelines: boolean };
  /** Items moved out by retention policies can be searched (the spec's cold-storage feature). */
  coldStorage: boolean;
  /** A reduced edition; Depot has none, the rule is kept for the day it has. */
  lightweight: boolean;
}

/**
 * Depot today: no companion service runs beside it, so release bundles, security and
 * pipelines are hidden; the archive of retention policies exists (docs/retention.md).
 */
export const DEPOT_SCOPE_CONDITIONS: Omit<ScopeConditions, 'admin'> = {
  services: { distribution: false, scanning: false, pipelines: false },
  coldStorage: true,
  lightweight: false,
};

/**
 * The scopes offered, in the spec's order (packages, artifacts, builds, release bundles,
 * security & compliance, archive, pipelines). The spec's license conditions are met while no
 * license restricts them (every feature is on until an admin installs one). Depot adds one
 * rule: the archive indexes every repository's items, so only administrators search it.
 */
export function availableScopes(conditions: ScopeConditions): SearchScope[] {
  const { services, lightweight } = conditions;
  const offered: Record<SearchScope, boolean> = {
    packages: !lightweight,
    artifacts: true,
    builds: !lightweight,
    releaseBundles: services.distribution && !lightweight,
    securityCompliance: services.scanning,
    archive: conditions.coldStorage && !lightweight && conditions.admin,
    pipelines: services.pipelines,
  };
  return (Object.keys(SEARCH_LABELS.scopes) as SearchScope[]).filter((scope) => offered[scope]);
}

/**
 * The spec's routes of companion services Depot does not run (spec 01 §2: "Unknown paths go
 * to 404 unless the path begins with an allowed prefix (bundle, bundles, pipelines,
 * admin/pipelines, and the service-specific lists)"). Such a path is not a mistyped address:
 * it names a feature of the platform whose service is absent, so the console says which
 * service that is instead of "could not be found". Features Depot could have but has not
 * built (LDAP, SAML, ...) are not listed: those paths stay 404s (docs/console-routes.md).
 */
export interface UnavailableFeature {
  /** What the person was looking for, as the spec names it. */
  feature: string;
  /** The service that serves it on the platform the spec describes. */
  service: string;
  /** Path prefixes, matched whole segment by segment. */
  prefixes: string[];
}

export const UNAVAILABLE_FEATURES: UnavailableFeature[] = [
  {
    feature: 'Release Bundles',
    service: 'Distribution',
    prefixes: [
      '/bundle',
      '/bundles',
      '/admin/repositories/distribution',
      '/admin/repositories/release_bundles',
    ],
  },
  {
    feature: 'Federated repositories',
    service: 'Federation',
    prefixes: ['/admin/repositories/federated'],
  },
  {
    feature: 'Pipelines',
    service: 'Pipelines',
    prefixes: [
      '/pipelines',
      '/admin/pipelines',
      '/pipelinesSearchResults',
      '/teaser-pipelines',
      '/pipelines-activation',
    ],
  },
  {
    feature: 'Security & Compliance',
    service: 'Xray',
    prefixes: ['/security-and-compliance-teaser'],
  },
  {
    feature: 'Private Distribution Network',
    service: 'Private Distribution Network',
    prefixes: ['/pdn-teaser', '/admin/monitoring/pdn'],
  },
  {
    feature: 'Platform Deployments and Federation',
    service: 'Mission Control',
    prefixes: [
      '/admin/mission_control/access_federation',
      '/admin/mission_control/platform_units',
      '/admin/mission_control/deployment_bindings',
      '/admin/mission_control/replications',
    ],
  },
];

/** The feature whose absent service serves `pathname`, if any. */
export function unavailableFeatureAt(pathname: string): UnavailableFeature | undefined {
  return UNAVAILABLE_FEATURES.find((entry) =>
    entry.prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)),
  );
}

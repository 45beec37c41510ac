/**
 * The spec's route table (spec 01 §2 "Public and top-level routes" and "Admin routes", spec 02
 * §2, spec 03 §2), one concrete path per route, with what Depot answers there today:
 * - `page`: a real page of Depot's (after the redirects the spec asks for);
 * - `unavailable`: the deliberate page naming the companion service Depot does not run
 *   (src/shell/unavailableServices.ts);
 * - `404`: a feature Depot has not built; no menu leads there (spec-routes.e2e.ts asserts it).
 * A route whose answer changes (a feature lands) changes its line here: the browser pass fails
 * until it does. Parameters are the entities spec-routes.e2e.ts seeds. Paths the spec leaves
 * open (where a child hangs) follow the nearest parent the spec names; docs/console-routes.md.
 */
export type RouteOutcome = 'page' | 'unavailable' | '404';

export interface SpecRoute {
  path: string;
  expected: RouteOutcome;
}

/** The keys of what was seeded, to put into the routes' parameters. */
export interface SeededKeys {
  repo: string;
  file: string;
  packageId: string;
  packageVersion: string;
  buildName: string;
  buildNumber: string;
  buildStarted: string;
  user: string;
  group: string;
  permission: string;
  propertySet: string;
  backup: string;
  webhook: string;
  proxy: string;
  layout: string;
  retentionPolicy: string;
}

const e = encodeURIComponent;

/** The public and top-level routes, and the spec's named routes outside /admin. */
function topLevelRoutes(k: SeededKeys): SpecRoute[] {
  const build = `${e(k.buildName)}/${e(k.buildNumber)}`;
  const routes: [string, RouteOutcome][] = [
    ['/repos/tree', 'page'],
    ['/repos/tree/General', 'page'],
    [`/repos/tree/General/${k.repo}/${k.file}`, 'page'],
    [`/repos/tree/Properties/${k.repo}/${k.file}`, 'page'],
    [`/artifactory/${k.repo}/${k.file}`, 'page'],
    ['/artifactSearchResults', 'page'],
    ['/packages', 'page'],
    [`/packages/${e(k.packageId)}`, 'page'],
    [`/packages/${e(k.packageId)}/${e(k.packageVersion)}`, 'page'],
    ['/builds', 'page'],
    [`/builds/${e(k.buildName)}`, 'page'],
    [`/builds/${build}`, 'page'],
    [`/builds/${build}/${e(k.buildStarted)}`, 'page'],
    [`/builds/${build}/${e(k.buildStarted)}/modules`, 'page'],
    ['/builds-new', 'page'],
    [`/builds-new/${build}`, 'page'],
    ['/admin/mission_control/topology', 'page'],
    ['/admin/mission_control/topology/home', 'page'],
    ['/quick-setup', 'page'],
    ['/onboarding', 'page'],
    ['/security-and-compliance-teaser', 'unavailable'],
    ['/pdn-teaser', 'unavailable'],
    ['/teaser-pipelines', 'unavailable'],
    ['/pipelines-activation', 'unavailable'],
    ['/404', '404'],
    ['/406/e2e-request', 'page'],
    ['/500', 'page'],
    ['/authorization', 'page'],
    ['/authorize?client_id=cli&response_type=code&state=s', '404'],
    ['/bundle', 'unavailable'],
    ['/bundles', 'unavailable'],
    ['/bundles/source', 'unavailable'],
    ['/pipelines', 'unavailable'],
    ['/pipelinesSearchResults', 'unavailable'],
    ['/admin/pipelines', 'unavailable'],
    ['/artifactoryRetention/search', 'page'],
    ['/terraform/oauth2/authorize', '404'],
    ['/demo', '404'],
    ['/template', '404'],
  ];
  return routes.map(([path, expected]) => ({ path, expected }));
}

/**
 * The login children, visited signed in: the spec sends a signed-in user on to a page of
 * the console, so each is a `page` where it lands, or a 404 for a child Depot lacks.
 */
function loginRoutes(): SpecRoute[] {
  const routes: [string, RouteOutcome][] = [
    ['/login', 'page'],
    ['/auth', 'page'],
    ['/login/otp-login', 'page'],
    ['/login/mfa-enroll', 'page'],
    ['/login/forgot-password', 'page'],
    ['/auth/reset-password?key=e2e-key', 'page'],
    ['/login/change-password/admin', 'page'],
    ['/login/invitation?token=e2e-token', 'page'],
    ['/login/cli-registration', '404'],
    ['/login/sso/saml', '404'],
  ];
  return routes.map(([path, expected]) => ({ path, expected }));
}

/** Spec 01 §2 "Admin routes", in its order. */
function adminRoutes(k: SeededKeys): SpecRoute[] {
  const a = (path: string, expected: RouteOutcome): SpecRoute => ({
    path: `/admin${path}`,
    expected,
  });
  return [
    a('', 'page'),
    a('/management/users', 'page'),
    a('/management/users/new', 'page'),
    a(`/management/users/${e(k.user)}/edit`, 'page'),
    a('/management/groups', 'page'),
    a('/management/groups/new', 'page'),
    a(`/management/groups/${e(k.group)}/edit`, 'page'),
    a('/management/permissions', 'page'),
    a('/management/permissions/create', 'page'),
    a(`/management/permissions/edit/${e(k.permission)}`, 'page'),
    a('/management/global_roles', '404'),
    a('/license_management/license_buckets', 'page'),
    a('/license_management/license_buckets/add', 'page'),
    a('/license_management/licenses', '404'),
    a('/artifactory/list', '404'),
    a('/artifactory/security/ssh_server', '404'),
    a('/artifactory/security/rsa_keys', '404'),
    a('/artifactory/security/trusted_keys', '404'),
    a('/artifactory/security/signing_keys', '404'),
    a('/artifactory/security/certificates', '404'),
    a('/artifactory/security/general', 'page'),
    a('/artifactory/security/keys_management', '404'),
    a('/artifactory/security/keys_management/gpg_rsa_keys', '404'),
    a('/artifactory/security/keys_management/java_key_store', '404'),
    a('/artifactory/security/keys_management/public_keys', '404'),
    a('/artifactory/security/keys_management/ssh', '404'),
    a('/artifactory/configuration/property_sets', 'page'),
    a('/artifactory/configuration/property_sets/new', 'page'),
    a(`/artifactory/configuration/property_sets/${e(k.propertySet)}/edit`, 'page'),
    a('/artifactory/configuration/reverse_proxy', 'page'),
    a('/artifactory/configuration/artifactory_general', 'page'),
    a('/artifactory/import_export/system', '404'),
    a('/artifactory/import_export/repositories', '404'),
    a('/artifactory/advanced/config_descriptor', 'page'),
    a('/artifactory/advanced/security_descriptor', 'page'),
    a('/artifactory/advanced/maintenance', 'page'),
    a('/artifactory/advanced/log_analytics', '404'),
    a('/artifactory/advanced/system_logs', 'page'),
    a('/artifactory/services/backups', 'page'),
    a('/artifactory/services/backups/new', 'page'),
    a(`/artifactory/services/backups/edit/${e(k.backup)}`, 'page'),
    a('/artifactory/services/indexer', '404'),
    a('/artifactory/services/retention/policies', 'page'),
    a('/artifactory/services/retention/cold_storage_monitoring', 'page'),
    a('/artifactory/services/retention/edit', 'page'),
    a(`/artifactory/services/retention/edit/${e(k.retentionPolicy)}`, 'page'),
    a('/artifactory/user_profile', 'page'),
    a('/configuration/mail', 'page'),
    a('/configuration/webhooks', 'page'),
    a('/configuration/webhooks/new', 'page'),
    a(`/configuration/webhooks/edit/${e(k.webhook)}`, 'page'),
    a('/configuration/general', 'page'),
    a('/configuration/applications', '404'),
    a('/configuration/applications/new', '404'),
    a('/configuration/security/crowd_integration', '404'),
    a('/configuration/vaults', '404'),
    a('/configuration/vaults/configuration', '404'),
    a('/configuration/vault_integration', '404'),
    a('/configuration/scim', '404'),
    a('/configuration/ldap', '404'),
    a('/configuration/ldap/ldap_settings', '404'),
    a('/configuration/ldap/ldap_group', '404'),
    a('/configuration/access_tokens', 'page'),
    a('/configuration/saml_integration', '404'),
    a('/configuration/oauth/settings', '404'),
    a('/configuration/oauth/new_provider', '404'),
    a('/configuration/http_sso', '404'),
    a('/mission_control/access_federation', 'unavailable'),
    a('/mission_control/access_federation/mesh', 'unavailable'),
    a('/mission_control/access_federation/star', 'unavailable'),
    a('/mission_control/platform_units', 'unavailable'),
    a('/mission_control/platform_units/add', 'unavailable'),
    a('/mission_control/deployment_bindings', 'unavailable'),
    a('/mission_control/replications', 'unavailable'),
    a('/monitoring/system_logs', 'page'),
    a('/monitoring/pdn', 'unavailable'),
    a('/monitoring/service-status', 'page'),
    a('/monitoring/storage-summary', 'page'),
    a('/support-zone', 'page'),
    a('/proxies/configuration', 'page'),
    a('/proxies/configuration/new', 'page'),
    a(`/proxies/configuration/edit/${e(k.proxy)}`, 'page'),
    a('/projects', 'page'),
    a('/projects/create', 'page'),
    a('/projects/overview', 'page'),
    a('/projects/members', 'page'),
    a('/projects/roles', 'page'),
    a('/projects/storage', 'page'),
    a('/repositories/local', 'page'),
    a('/repositories/remote', 'page'),
    a('/repositories/virtual', 'page'),
    a('/repositories/federated', 'unavailable'),
    a('/repositories/distribution', 'unavailable'),
    a('/repositories/release_bundles', 'unavailable'),
    a('/repositories/local/new', 'page'),
    a('/repositories/remote/new', 'page'),
    a('/repositories/virtual/new', 'page'),
    a(`/repositories/local/${e(k.repo)}/edit`, 'page'),
    a('/repositories/layouts', 'page'),
    a('/repositories/layouts/new', 'page'),
    a(`/repositories/layouts/${e(k.layout)}/edit`, 'page'),
  ];
}

export function specRoutes(keys: SeededKeys): SpecRoute[] {
  return [...topLevelRoutes(keys), ...loginRoutes(), ...adminRoutes(keys)];
}

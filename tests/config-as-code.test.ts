import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SecretBox } from '../server/crypto/secret-box.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Configuration as code (docs/config-as-code.md): a configured Depot exported, applied to an
 * empty one sharing its master key and exported again reads the same; patches are all or
 * nothing, dry runs write nothing, secrets never leave sealed, and only admins may do it.
 */
const UI = '/ui/api/v1';
const REST = '/artifactory/api/system/configuration';
const SECRETS = {
  proxy: 'proxy-Secret-1',
  upstream: 'upstream-Pass-7',
  mail: 'mail-Secret-3',
  webhook: 's3cret-token-9',
};
const masterKey = randomBytes(32).toString('hex');
const dev = { authorization: basic('dev', 'dev-pass-1') };

let source: TestDepot;
let target: TestDepot;

async function call(
  depot: TestDepot,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: object | string,
  headers: Record<string, string> = adminAuth(),
) {
  const response = await depot.app.inject({ method, url, headers, payload });
  return response;
}

async function ok(depot: TestDepot, method: 'POST' | 'PUT', url: string, payload: object) {
  const response = await call(depot, method, url, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
}

const exportYaml = async (depot: TestDepot) => {
  const response = await call(depot, 'GET', REST, undefined, {
    ...adminAuth(),
    accept: 'application/yaml',
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('application/yaml');
  return response.body;
};
const exported = async (depot: TestDepot) => parse(await exportYaml(depot));

const patch = (depot: TestDepot, yaml: string, query = '', headers = adminAuth()) =>
  depot.app.inject({
    method: 'PATCH',
    url: `${REST}${query}`,
    headers: { ...headers, 'content-type': 'application/yaml' },
    payload: yaml,
  });

async function configure(depot: TestDepot) {
  const repo = (key: string, body: object) =>
    ok(depot, 'PUT', `/artifactory/api/repositories/${key}`, body);
  await ok(depot, 'POST', `${UI}/ui/admin/repositories/layouts`, {
    name: 'team-layout',
    artifactPathPattern: '[org]/[module]/[baseRev]/[module]-[baseRev].[ext]',
    distinctiveDescriptorPathPattern: false,
    folderIntegrationRevisionRegExp: 'SNAPSHOT',
    fileIntegrationRevisionRegExp: 'SNAPSHOT|\\d{14}',
  });
  await ok(depot, 'POST', `${UI}/ui/proxies`, {
    key: 'corporate',
    host: 'proxy.example.test',
    port: 3128,
    username: 'depot',
    password: SECRETS.proxy,
  });
  // A project and its custom role, before the repository that names it.
  await ok(depot, 'POST', '/access/api/v1/projects', {
    project_key: 'team',
    display_name: 'Team',
    description: 'The team',
    admin_privileges: { manage_members: true, manage_resources: false, index_resources: true },
    storage_quota_bytes: 1073741824,
  });
  await ok(depot, 'POST', '/access/api/v1/projects/team/roles', {
    name: 'Releaser',
    type: 'CUSTOM',
    environments: ['PROD'],
    actions: ['READ_REPOSITORY', 'DEPLOY_CACHE_REPOSITORY'],
  });
  await repo('team-libs', { rclass: 'local', packageType: 'generic', projectKey: 'team' });
  await repo('libs-local', {
    rclass: 'local',
    packageType: 'generic',
    description: 'Team libraries',
    repoLayoutRef: 'team-layout',
  });
  await repo('npm-local', { rclass: 'local', packageType: 'npm' });
  await repo('npm-remote', {
    rclass: 'remote',
    packageType: 'npm',
    url: 'https://upstream.example.test/npm',
    username: 'reader',
    password: SECRETS.upstream,
    proxy: 'corporate',
  });
  await repo('npm', {
    rclass: 'virtual',
    packageType: 'npm',
    repositories: ['npm-local', 'npm-remote'],
    defaultDeploymentRepo: 'npm-local',
  });
  await ok(depot, 'POST', `${UI}/ui/propertysets`, {
    name: 'release',
    properties: [
      {
        name: 'stage',
        propertyType: 'SINGLE_SELECT',
        predefinedValues: [
          { value: 'dev', defaultValue: true },
          { value: 'prod', defaultValue: false },
        ],
      },
    ],
  });
  await ok(depot, 'PUT', `${UI}/ui/mail`, {
    enabled: true,
    host: 'smtp.example.test',
    port: 587,
    username: 'depot',
    password: SECRETS.mail,
    from: 'depot@example.test',
  });
  await ok(depot, 'PUT', `${UI}/ui/generalConfig`, {
    serverName: 'Team Depot',
    customMessageEnabled: true,
    customMessage: 'Maintenance <Saturday> & Sunday',
  });
  await ok(depot, 'POST', `${UI}/ui/webhooks`, {
    key: 'deploys-to-ci',
    enabled: true,
    domain: 'artifact',
    eventTypes: ['deployed'],
    url: 'https://ci.example.test/hooks/depot',
    secret: SECRETS.webhook,
    anyLocal: false,
    anyRemote: false,
    repoKeys: ['libs-local'],
  });
  await ok(depot, 'POST', `${UI}/ui/backup`, { key: 'nightly', cronExp: '0 0 2 * * ?' });
  // A settings document naming a repository: applied after the repositories it names.
  await repo('docker-local', { rclass: 'local', packageType: 'docker' });
  await ok(depot, 'PUT', `${UI}/ui/reverseProxies/crud`, {
    serverName: 'depot.example.test',
    useHttp: true,
    httpPort: 80,
    dockerReverseProxyMethod: 'portPerRepo',
    reverseProxyRepositories: [{ repoKey: 'docker-local', port: 5001 }],
  });
}

beforeAll(async () => {
  [source, target] = await Promise.all([
    startTestDepot({ DEPOT_MASTER_KEY: masterKey }),
    startTestDepot({ DEPOT_MASTER_KEY: masterKey }),
  ]);
  await configure(source);
  await source.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  } as never);
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

describe('export', () => {
  it('holds every setting, each secret sealed and none in plain text, as XML and YAML', async () => {
    const xml = await call(source, 'GET', REST);
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toContain('application/xml');
    const yaml = await exportYaml(source);
    for (const text of [xml.body, yaml])
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    const document = parse(yaml);
    expect(document.remoteRepositories['npm-remote'].password).toMatch(/^enc:v1:/);
    expect(document.proxies.corporate.password).toMatch(/^enc:v1:/);
    expect(document.mailServer.password).toMatch(/^enc:v1:/);
    expect(document.webhooks['deploys-to-ci'].secret).toMatch(/^enc:v1:/);
    expect(document.virtualRepositories.npm.repositories).toEqual(['npm-local', 'npm-remote']);
    expect(document.localRepositories['libs-local'].repoLayoutRef).toBe('team-layout');
    expect(Object.keys(document.repoLayouts)).toEqual(['team-layout']); // built-ins are not
    expect(document.general.serverName).toBe('Team Depot');
    expect(document.projects).toEqual({
      team: {
        display_name: 'Team',
        description: 'The team',
        admin_privileges: { manage_members: true, manage_resources: false, index_resources: true },
        storage_quota_bytes: 1073741824,
        roles: [
          {
            name: 'Releaser',
            description: '',
            environments: ['PROD'],
            actions: ['READ_REPOSITORY', 'DEPLOY_CACHE_REPOSITORY'],
          },
        ],
      },
    });
    expect(document.localRepositories['team-libs'].projectKey).toBe('team');
    expect(document.maintenance.garbageCollectorCron).toBe('0 0 2 * * ?');
    expect(xml.body).toContain('<config version="1">');
    expect(xml.body).toContain('Maintenance &lt;Saturday&gt; &amp; Sunday');
    // Users are not configuration.
    expect(yaml).not.toContain('dev@example.com');
  });
});

describe('apply to an empty Depot', () => {
  it('reproduces the configuration through ui/configdescriptor, secrets still working', async () => {
    const xml = (await call(source, 'GET', `${UI}/ui/configdescriptor`)).body;
    const saved = await call(target, 'PUT', `${UI}/ui/configdescriptor`, { configXml: xml });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().info).toBe('Configuration saved successfully');
    expect(await exported(target)).toEqual(await exported(source));
    const again = await call(target, 'GET', `${UI}/ui/configdescriptor`);
    expect(again.body).toBe(xml);
    // The sealed secrets open on the new Depot and are what was set on the first.
    const mail = await target.services.entities.single('mail-settings').opened();
    expect(mail.password).toBe(SECRETS.mail);
    const row = await target.services.repositories.findRow('npm-remote');
    expect(target.services.secrets.decrypt(String(row!.config.password))).toBe(SECRETS.upstream);
    // Applying the same document again changes nothing.
    const same = await call(target, 'PUT', `${UI}/ui/configdescriptor`, { configXml: xml });
    expect(same.json()).toMatchObject({ changes: [] });
  });
});

describe('YAML patch', () => {
  it('with one invalid field changes nothing and names the field with the schema message', async () => {
    const before = await exportYaml(source);
    const response = await patch(
      source,
      [
        'general:',
        '  serverName: Renamed',
        'proxies:',
        '  corporate:',
        '    port: 70000',
        'localRepositories:',
        '  new-local:',
        '    packageType: generic',
      ].join('\n'),
    );
    expect(response.statusCode, response.body).toBe(400);
    const [error] = response.json().errors;
    expect(error.field).toBe('proxies.corporate.port');
    expect(error.message).toMatch(/^proxies\.corporate\.port: /);
    expect(error.message).not.toMatch(/must be|must have/);
    expect(await exportYaml(source)).toBe(before);
  });

  it('refuses a rule a feature checks (a layout that does not exist), naming the field', async () => {
    const before = await exportYaml(source);
    const response = await patch(
      source,
      'localRepositories:\n  libs-local:\n    repoLayoutRef: no-such-layout\n',
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].field).toBe('localRepositories.libs-local.repoLayoutRef');
    expect(await exportYaml(source)).toBe(before);
  });

  it('applies a project before the repository that names it; refuses removing one that owns one', async () => {
    const before = await exportYaml(source);
    const added = await patch(
      source,
      [
        'projects:',
        '  ops: { display_name: Operations }',
        'localRepositories:',
        '  ops-local: { packageType: generic, projectKey: ops }',
      ].join('\n'),
      '?dryRun=true',
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().changes).toEqual([
      { path: 'projects.ops', action: 'create' },
      { path: 'localRepositories.ops-local', action: 'create' },
    ]);
    const owning = await patch(source, 'projects:\n  team: null\n');
    expect(owning.statusCode, owning.body).toBe(409);
    expect(owning.json().errors[0].message).toMatch(/^projects\.team: /);
    const badKey = await patch(source, 'projects:\n  Bad_Key: { display_name: Bad }\n');
    expect(badKey.statusCode, badKey.body).toBe(400);
    expect(badKey.json().errors[0].field).toBe('projects.Bad_Key.project_key');
    expect(await exportYaml(source)).toBe(before);
  });

  it('in a dry run tells what would change and writes nothing', async () => {
    const before = await exportYaml(source);
    const auditBefore = await source.services.entities.audit('proxy');
    const response = await patch(
      source,
      'proxies:\n  second:\n    host: other.example.test\n    port: 8080\npropertySets:\n  release: null\n',
      '?dryRun=true',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      dryRun: true,
      changes: [
        { path: 'proxies.second', action: 'create' },
        { path: 'propertySets.release', action: 'delete' },
      ],
    });
    expect(await exportYaml(source)).toBe(before);
    expect(await source.services.entities.audit('proxy')).toEqual(auditBefore);
  });

  it('merges maps, removes what is set to null, applies at once and audits it', async () => {
    const response = await patch(
      source,
      [
        'proxies:',
        '  second: { host: other.example.test, port: 8080, password: plain-Proxy-2 }',
        'propertySets:',
        '  release: null',
        'localRepositories:',
        '  libs-local: { description: Renamed libraries }',
        'maintenance:',
        '  quotaControl: true',
        '  storageLimit: 90',
        '  storageWarning: 80',
      ].join('\n'),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().dryRun).toBe(false);
    const document = await exported(source);
    expect(document.proxies.second).toMatchObject({ host: 'other.example.test', port: 8080 });
    expect(document.proxies.second.password).toMatch(/^enc:v1:/);
    expect(document.proxies.corporate.host).toBe('proxy.example.test'); // merged, not replaced
    expect(document.propertySets).toEqual({});
    expect(document.localRepositories['libs-local']).toMatchObject({
      description: 'Renamed libraries',
      repoLayoutRef: 'team-layout',
    });
    expect(document.maintenance).toMatchObject({ quotaControl: true, storageLimit: 90 });
    expect((await source.services.maintenanceSettings.get()).storageWarning).toBe(80);
    const audit = await source.services.entities.audit('configuration');
    expect(audit[0]).toMatchObject({ actor: 'admin', action: 'update' });
    expect(JSON.stringify(await source.services.entities.audit('proxy'))).not.toContain(
      'plain-Proxy-2',
    );
  });

  it('keeps a repository that holds content: removing it through the configuration is refused', async () => {
    const deployed = await source.app.inject({
      method: 'PUT',
      url: '/artifactory/npm-local/keep/me.txt',
      headers: adminAuth(),
      payload: 'content',
    });
    expect(deployed.statusCode, deployed.body).toBe(201);
    const before = await exportYaml(source);
    const response = await patch(
      source,
      'virtualRepositories: { npm: null }\nlocalRepositories: { npm-local: null }\n',
    );
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().errors[0].field).toBe('localRepositories.npm-local');
    expect(await exportYaml(source)).toBe(before);
  });

  it('refuses a secret sealed with another master key, and text that is not YAML', async () => {
    const foreign = new SecretBox(randomBytes(32)).encrypt('elsewhere');
    const sealed = await patch(source, `mailServer: { password: "${foreign}" }\n`);
    expect(sealed.statusCode, sealed.body).toBe(400);
    expect(sealed.json().errors[0].field).toBe('mailServer.password');
    const broken = await patch(source, 'proxies: [unclosed\n');
    expect(broken.statusCode).toBe(400);
    const unknown = await patch(source, 'users: { someone: {} }\n');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('users');
  });
});

describe('who may', () => {
  it('answers only admins', async () => {
    const calls = [
      call(source, 'GET', REST, undefined, dev),
      patch(source, 'general: { serverName: Mine }\n', '', dev),
      call(source, 'GET', `${UI}/ui/configdescriptor`, undefined, dev),
      call(source, 'PUT', `${UI}/ui/configdescriptor`, { configXml: '<config/>' }, dev),
      call(source, 'GET', `${UI}/ui/securitydescriptor`, undefined, dev),
    ];
    for (const response of await Promise.all(calls)) expect(response.statusCode).toBe(403);
    expect((await call(source, 'GET', REST, undefined, {})).statusCode).toBe(401);
  });

  it('shows the security settings read-only as XML', async () => {
    const response = await call(source, 'GET', `${UI}/ui/securitydescriptor`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<security>');
    expect(response.body).toContain('<anonAccessEnabled>');
    expect(response.body).not.toContain('enc:v1:');
  });

  it('refuses XML that is not well formed, naming why', async () => {
    const response = await call(source, 'PUT', `${UI}/ui/configdescriptor`, {
      configXml: '<config><proxies></config>',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/not well-formed XML/);
  });
});

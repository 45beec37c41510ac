import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NPM_MESSAGES } from '../server/formats/npm/messages.ts';
import type { HttpDepot } from './helpers/http-depot.ts';
import { npmRegistry, startNpmTopology } from './helpers/npm-topology.ts';
import { npmCli, npmrc, packTarball, publishDocument } from './helpers/npm-cli.ts';
import { basic, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * The calls real clients and scripts make beyond install and publish (issue 24, items 18 to
 * 25), with the real npm CLI where one makes them: docs/npm.md's `.npmrc` as written, the
 * CI recipe's auth lines, unpublishing through a virtual repository, npm's account commands.
 */
let depot: HttpDepot;
let upstream: HttpDepot;
let token: string;

const registry = npmRegistry;
const admin = { authorization: basic('admin', TEST_ADMIN_PASSWORD) };
const ADMIN_PRINCIPAL = { name: 'admin', admin: true, anonymous: false, via: 'basic' as const };

/** Publishes name@version into `key` with npm's own document, as the admin. */
async function publish(server: HttpDepot, key: string, name: string, version: string, extra = {}) {
  const tarball = await packTarball({ 'package.json': JSON.stringify({ name, version }) });
  const answer = await server.request(`/artifactory/api/npm/${key}/${name.replace('/', '%2f')}`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify(publishDocument(name, version, tarball, extra)),
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
}

async function versionsIn(server: HttpDepot, key: string, name: string) {
  const answer = await server.request(`/artifactory/api/npm/${key}/${name}`, { headers: admin });
  if (answer.status === 404) return [];
  return Object.keys(((await answer.json()) as { versions: object }).versions).sort();
}

beforeAll(async () => {
  ({ depot, upstream } = await startNpmTopology());
  const created = await depot.request('/access/api/v1/tokens', {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'npm client calls' }),
  });
  token = ((await created.json()) as { access_token: string }).access_token;
}, 60_000);

afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe("docs/npm.md's .npmrc, as written", () => {
  it('serves npm whoami and npm publish with npm 11', async () => {
    const doc = readFileSync(new URL('../docs/npm.md', import.meta.url), 'utf8');
    const block = /```ini\n([\s\S]*?)```/.exec(doc)![1]!;
    const written = block
      .replaceAll('http://depot.example:8082', depot.base)
      .replaceAll('//depot.example:8082', depot.base.replace(/^http:/, ''))
      .replaceAll('<token>', token);
    const cli = npmCli(written);
    try {
      expect((await cli.npm(['whoami'])).stdout.trim()).toBe('admin');
      const dir = cli.packageDir({ name: 'docs-example', version: '1.0.0' });
      await cli.npm(['publish'], dir);
      expect(await versionsIn(depot, 'npm-local', 'docs-example')).toEqual(['1.0.0']);
    } finally {
      cli.close();
    }
  });
});

describe("the CI recipe's .npmrc lines (GET /api/npm/auth)", () => {
  it("answers the caller's own credential as Artifactory's _auth, email and always-auth lines", async () => {
    const answer = await depot.request('/artifactory/api/npm/auth', { headers: admin });
    expect(answer.status).toBe(200);
    const email = (await depot.services.users.get('admin')).email;
    expect(await answer.text()).toBe(
      `_auth = ${admin.authorization.slice(6)}\nalways-auth = true\nemail = ${email}\n`,
    );
    const anonymous = await fetch(`${depot.base}/artifactory/api/npm/auth`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('_auth');
  });

  it('answers the scoped registry lines that npm 11 reads, and npm works with them appended', async () => {
    await publish(depot, 'npm-local', '@acme/tool', '1.2.0');
    const bearer = { authorization: `Bearer ${token}` };
    const answer = await depot.request('/artifactory/api/npm/npm/auth/acme', { headers: bearer });
    expect(answer.status).toBe(200);
    const lines = await answer.text();
    const nerfDart = registry(depot, 'npm').replace(/^http:/, '');
    expect(lines).toContain(`@acme:registry=${registry(depot, 'npm')}\n`);
    expect(lines).toContain(
      `${nerfDart}:_auth=${Buffer.from(`admin:${token}`).toString('base64')}\n`,
    );
    expect(lines).toContain(`${nerfDart}:always-auth=true\n`);
    // The recipe: the answer appended to an .npmrc that has no credential of its own.
    const cli = npmCli(`registry=${registry(depot, 'npm-local')}\n${lines}`);
    try {
      const { stdout } = await cli.npm(['view', '@acme/tool', 'version']);
      expect(stdout.trim()).toBe('1.2.0');
      const whoami = await cli.npm(['whoami', '--registry', registry(depot, 'npm')]);
      expect(whoami.stdout.trim()).toBe('admin');
    } finally {
      cli.close();
    }
    const withAt = await depot.request('/artifactory/api/npm/npm/auth/@acme', { headers: bearer });
    expect(await withAt.text()).toBe(lines);
    const anonymous = await fetch(`${depot.base}/artifactory/api/npm/npm/auth/acme`);
    expect(anonymous.status).toBe(401);
    const badScope = await depot.request('/artifactory/api/npm/npm/auth/Not%20A%20Scope', {
      headers: bearer,
    });
    expect(badScope.status).toBe(400);
  });
});

describe('unpublish through a virtual repository', () => {
  it('refuses a version only a remote member serves, naming the member, and npm prints it', async () => {
    await publish(upstream, 'npm-upstream', 'remote-only', '1.0.0');
    await publish(upstream, 'npm-upstream', 'mixed', '2.0.0');
    await publish(depot, 'npm-local', 'mixed', '1.0.0');
    const cli = npmCli(
      npmrc(registry(depot, 'npm'), { [registry(depot, 'npm')]: `_authToken=${token}` }),
    );
    try {
      for (const spec of ['remote-only@1.0.0', 'mixed@2.0.0']) {
        const refused = await cli.npm(['unpublish', spec, '--force']).then(
          () => undefined,
          (error: { stderr: string }) => error.stderr,
        );
        expect(refused, spec).toContain(
          NPM_MESSAGES.unpublishInMember(
            spec.split('@')[0]!,
            spec.split('@')[1]!,
            'npm-remote',
            'remote',
          ),
        );
      }
      expect(await versionsIn(depot, 'npm', 'mixed')).toEqual(['1.0.0', '2.0.0']);
      expect(await versionsIn(upstream, 'npm-upstream', 'remote-only')).toEqual(['1.0.0']);
      // The local member's own version still goes, through the virtual.
      await publish(depot, 'npm-local', 'mixed', '1.1.0');
      await cli.npm(['unpublish', 'mixed@1.1.0']);
      expect(await versionsIn(depot, 'npm-local', 'mixed')).toEqual(['1.0.0']);
    } finally {
      cli.close();
    }
  });
});

describe("npm's account commands", () => {
  let cli: ReturnType<typeof npmCli>;
  beforeAll(async () => {
    cli = npmCli(
      npmrc(registry(depot, 'npm'), { [registry(depot, 'npm')]: `_authToken=${token}` }),
    );
    await publish(depot, 'npm-local', 'account-pkg', '1.0.0');
    await publish(depot, 'npm-local', '@acme/account', '1.0.0');
    await publish(upstream, 'npm-upstream', 'upstream-finds', '3.0.0', {
      description: 'a package only the upstream has',
    });
  });
  afterAll(() => cli?.close());

  it('npm token create, list and revoke: Depot access tokens, made after the password', async () => {
    const created = await cli.npm(['token', 'create', '--password', TEST_ADMIN_PASSWORD]);
    const made = /Created token (eyJ[\w.-]+)/.exec(created.stdout)?.[1];
    expect(made, created.stdout).toBeDefined();
    const whoami = await fetch(`${registry(depot, 'npm')}-/whoami`, {
      headers: { authorization: `Bearer ${made}` },
    });
    expect(await whoami.json()).toEqual({ username: 'admin' });
    const id = (await depot.services.tokens.list(ADMIN_PRINCIPAL)).find(
      (t) => t.description === 'npm token create',
    )!.token_id;
    // npm shows the start of each token's key as its id, and revokes by it.
    expect((await cli.npm(['token', 'list'])).stdout).toContain(`with id ${id.slice(0, 6)}`);
    const revoked = await cli.npm(['token', 'revoke', id.slice(0, 8)]);
    expect(revoked.stdout).toContain('Removed 1 token');
    const after = await fetch(`${registry(depot, 'npm')}-/whoami`, {
      headers: { authorization: `Bearer ${made}` },
    });
    expect(after.status).toBe(401);
    const wrong = await cli.npm(['token', 'create', '--password', 'not-it']).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(wrong).toContain('401');
  });

  it('npm profile get and npm owner ls answer from Depot’s user', async () => {
    const email = (await depot.services.users.get('admin')).email;
    const profile = JSON.parse((await cli.npm(['profile', 'get', '--json'])).stdout) as object;
    expect(profile).toMatchObject({ name: 'admin', email, tfa: false });
    const owners = await cli.npm(['owner', 'ls', 'account-pkg']);
    expect(owners.stdout.trim()).toBe(`admin <${email}>`);
  });

  it('npm access lists what Depot’s permissions grant, and says where they are changed', async () => {
    const packages = JSON.parse((await cli.npm(['access', 'list', 'packages', '--json'])).stdout);
    expect(packages).toMatchObject({ 'account-pkg': 'read-write' });
    const collaborators = JSON.parse(
      (await cli.npm(['access', 'list', 'collaborators', 'account-pkg', '--json'])).stdout,
    );
    expect(collaborators).toMatchObject({ admin: 'read-write' });
    const status = await cli.npm(['access', 'get', 'status', 'account-pkg']);
    expect(status.stdout).toContain('private');
    const change = await cli.npm(['access', 'set', 'status=public', '@acme/account']).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(change).toContain('permission targets');
  });

  it('npm star and unstar are stored, and npm stars lists them', async () => {
    expect((await cli.npm(['star', 'account-pkg'])).stdout).toContain('account-pkg');
    expect((await cli.npm(['stars'])).stdout.trim()).toBe('account-pkg');
    const document = await depot.request('/artifactory/api/npm/npm/account-pkg?write=true');
    expect(((await document.json()) as { users: object }).users).toEqual({ admin: true });
    await cli.npm(['unstar', 'account-pkg']);
    expect((await cli.npm(['stars'])).stdout.trim()).toBe('');
  });

  it('npm search through the virtual finds what only the remote member’s upstream has', async () => {
    const found = JSON.parse((await cli.npm(['search', 'upstream-finds', '--json'])).stdout) as {
      name: string;
    }[];
    expect(found.map((p) => p.name)).toEqual(['upstream-finds']);
    const local = JSON.parse((await cli.npm(['search', 'account-pkg', '--json'])).stdout) as {
      name: string;
    }[];
    expect(local.map((p) => p.name)).toEqual(['account-pkg']);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Deploy by checksum (`X-Checksum-Deploy: true`) takes content already stored instead of a
 * body. It may reuse content only when the caller can read an item holding it; otherwise it
 * answers exactly as for a checksum nobody stored, so that neither the content nor the fact
 * that it exists somewhere reaches a caller who may not read it (docs/access-control.md).
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const sha = (kind: 'sha1' | 'sha256', data: string) => createHash(kind).update(data).digest('hex');

const SECRET = 'the release signing key, stored where dev may not read';
const EXCLUDED = 'a file dev may not read, in a repository dev may read';
const SHARED = 'content stored both where dev may and may not read';
const ORPHAN = 'content whose only item was deleted for good';

beforeAll(async () => {
  depot = await startTestDepot();
  for (const key of ['gen-local', 'secret-local']) await createRepository(depot, key, 'local');
  await deployFile(depot, 'secret-local', 'keys/signing.key', SECRET);
  await deployFile(depot, 'gen-local', 'private/notes.txt', EXCLUDED);
  await deployFile(depot, 'secret-local', 'shared.bin', SHARED);
  await deployFile(depot, 'gen-local', 'pub/shared.bin', SHARED);
  await deployFile(depot, 'gen-local', 'pub/orphan.bin', ORPHAN);
  await depot.services.trash.updateConfig({ enabled: false });
  const gone = await depot.app.inject({
    method: 'DELETE',
    url: '/artifactory/gen-local/pub/orphan.bin',
    headers: adminAuth(),
  });
  expect(gone.statusCode).toBe(204);
  // dev may read and deploy in gen-local, except below private/; nothing in secret-local.
  await devWithOnlyGrant(depot, {
    repositories: ['gen-local'],
    include: ['**'],
    exclude: ['private/**'],
    actions: ['read', 'write'],
  });
});
afterAll(() => depot?.close());

const checksumDeploy = (path: string, headers: Record<string, string>, who = DEV) =>
  depot.app.inject({
    method: 'PUT',
    url: `/artifactory/gen-local/${path}`,
    headers: { ...who, 'x-checksum-deploy': 'true', ...headers },
  });

/** The answer with the checksum taken out: an unknown checksum's answer names the one sent. */
const shape = (response: { statusCode: number; body: string }, checksum: string) => ({
  status: response.statusCode,
  body: response.body.replaceAll(checksum, '<checksum>'),
});

async function exists(repoKey: string, path: string) {
  const response = await depot.app.inject({
    method: 'GET',
    url: `/artifactory/api/storage/${repoKey}/${path}`,
    headers: adminAuth(),
  });
  return response.statusCode === 200;
}

describe('deploy by checksum', () => {
  it('answers for content the caller may not read exactly as for unknown content', async () => {
    const never = sha('sha256', 'never stored anywhere');
    const unknown = shape(
      await checksumDeploy('unknown.txt', { 'x-checksum-sha256': never }),
      never,
    );
    expect(unknown.status).toBe(404);
    const cases: [string, 'sha256' | 'sha1', string][] = [
      ['stolen-256.txt', 'sha256', SECRET],
      ['stolen-1.txt', 'sha1', SECRET],
      ['excluded-256.txt', 'sha256', EXCLUDED],
      ['excluded-1.txt', 'sha1', EXCLUDED],
      ['orphan.txt', 'sha256', ORPHAN],
    ];
    for (const [path, kind, content] of cases) {
      const checksum = sha(kind, content);
      const header = kind === 'sha256' ? 'x-checksum-sha256' : 'x-checksum-sha1';
      const answer = await checksumDeploy(path, { [header]: checksum });
      expect(shape(answer, checksum), path).toEqual(unknown);
      expect(await exists('gen-local', path), path).toBe(false);
    }
  });

  it('reuses content the caller can read in at least one item holding it', async () => {
    for (const [path, kind] of [
      ['copy-256.bin', 'sha256'],
      ['copy-1.bin', 'sha1'],
    ] as const) {
      const header = kind === 'sha256' ? 'x-checksum-sha256' : 'x-checksum-sha1';
      const answer = await checksumDeploy(path, { [header]: sha(kind, SHARED) });
      expect(answer.statusCode, answer.body).toBe(201);
      const download = await depot.app.inject({
        url: `/artifactory/gen-local/${path}`,
        headers: DEV,
      });
      expect(download.body).toBe(SHARED);
    }
  });

  it('lets an administrator reuse any stored item, as they may read them all', async () => {
    const answer = await checksumDeploy(
      'admin-copy.key',
      { 'x-checksum-sha256': sha('sha256', SECRET) },
      adminAuth(),
    );
    expect(answer.statusCode, answer.body).toBe(201);
  });
});

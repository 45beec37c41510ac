import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StagedBlob } from '../server/storage/filestore.ts';
import { adminAuth, createRepository, startTestDepot } from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'gen', 'local');
});
afterAll(() => depot?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a blob written but never referenced', () => {
  it('is collected by the normal garbage collection after its grace period', async () => {
    const content = 'content whose recording never commits';
    const { filestore } = depot.services;
    const commit = filestore.commit.bind(filestore);
    // The process dies right after the blob's rename, before the row's commit: the
    // transaction is rolled back, as a crash rolls it back.
    filestore.commit = async (staged: StagedBlob) => {
      await commit(staged);
      throw new Error('killed between the rename and the commit');
    };
    try {
      await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/gen/crash/lost.bin',
        headers: adminAuth(),
        payload: content,
      });
    } finally {
      filestore.commit = commit;
    }
    const onDisk = () => existsSync(filestore.pathOf(sha256(content)));
    expect(onDisk()).toBe(true);
    const lost = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/gen/crash/lost.bin',
      headers: adminAuth(),
    });
    expect(lost.statusCode).toBe(404);

    // Within the grace period it stays (an upload may be about to refer to it).
    expect((await depot.services.garbageCollector.collect(60 * 60 * 1000)).binaries).toBe(0);
    expect(onDisk()).toBe(true);
    const report = await depot.services.garbageCollector.collect(0);
    expect(report).toEqual({ binaries: 1, bytes: content.length });
    expect(onDisk()).toBe(false);
  });
});

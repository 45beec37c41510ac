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
    const place = filestore.place.bind(filestore);
    // The process dies right after the blob is put in place, before the row's commit: the
    // recording transaction never commits, as after a crash.
    filestore.place = async (staged: StagedBlob) => {
      await place(staged);
      throw new Error('killed between putting the blob in place and the commit');
    };
    try {
      await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/gen/crash/lost.bin',
        headers: adminAuth(),
        payload: content,
      });
    } finally {
      filestore.place = place;
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

describe('a blob collected while its deploy records it', () => {
  it('is put back from the staged file, and the deploy keeps its content', async () => {
    const content = 'content collected between its placing and its recording';
    const { filestore, garbageCollector } = depot.services;
    const place = filestore.place.bind(filestore);
    let collected = 0;
    // A collection with no grace period runs right after the blob is put in place, before
    // the recording transaction claims its row: it removes the blob, file and row.
    filestore.place = async (staged: StagedBlob) => {
      await place(staged);
      if (collected === 0) collected = (await garbageCollector.collect(0)).binaries;
    };
    try {
      const deploy = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/gen/raced/kept.bin',
        headers: adminAuth(),
        payload: content,
      });
      expect(deploy.statusCode).toBe(201);
    } finally {
      filestore.place = place;
    }
    expect(collected).toBe(1);
    expect(existsSync(filestore.pathOf(sha256(content)))).toBe(true);
    const download = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/gen/raced/kept.bin',
      headers: adminAuth(),
    });
    expect(download.body).toBe(content);
    // Referred to now: a collection leaves it alone.
    await garbageCollector.collect(0);
    expect(existsSync(filestore.pathOf(sha256(content)))).toBe(true);
  });
});

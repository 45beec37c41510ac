import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { mountSmallDisk, type SmallDisk } from './helpers/small-disk.ts';
import { DEFAULT_MAINTENANCE } from '../server/modules/maintenance/settings.ts';

/**
 * The storage quota, on a real disk of the test's own: a small tmpfs holding the filestore,
 * filled to about half, so that the usage does not depend on the machine (a RAM disk for
 * temporary files is nearly empty). The test sets the limit just below that usage.
 */
const MiB = 1024 * 1024;
let disk: SmallDisk;
let depot: HttpDepot;
beforeAll(async () => {
  disk = mountSmallDisk('depot-quota-disk-', 16 * MiB);
  disk.fill(8 * MiB);
  depot = await startHttpDepot({ DEPOT_FILESTORE_DIR: join(disk.path, 'filestore') });
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
});
afterAll(async () => {
  await depot?.close();
  disk?.release();
});

const maintenance = async () => (await depot.request('/ui/api/v1/ui/maintenance')).json();
const saveQuota = (storageLimit: number, storageWarning: number) =>
  depot.request('/ui/api/v1/ui/maintenance', {
    method: 'PUT',
    body: JSON.stringify({
      ...DEFAULT_MAINTENANCE,
      quotaControl: true,
      storageLimit,
      storageWarning,
    }),
    headers: { 'content-type': 'application/json' },
  });
const put = (path: string, body: string) =>
  depot.request(`/artifactory/libs/${path}`, { method: 'PUT', body });

describe('storage quota', () => {
  it('deploys while usage is under the limit', async () => {
    expect((await saveQuota(100, 95)).status).toBe(200);
    expect((await put('under/limit.txt', 'fits')).status).toBe(201);
  });

  it('refuses a deploy over the limit with 413, storing nothing, and says so on the page', async () => {
    const used = (await maintenance()).storageUsage.usedPercent;
    // The largest step of 5 below the current usage, with the warning a step lower.
    const limit = Math.floor((used - 0.1) / 5) * 5;
    expect(
      limit,
      `the filestore's disk must be over 5% used (it is ${used}%)`,
    ).toBeGreaterThanOrEqual(5);
    expect((await saveQuota(limit, limit - 5)).status).toBe(200);

    const blobsBefore = await depot.services.db.selectFrom('blobs').select('sha256').execute();
    const response = await put('over/limit.txt', 'does not fit');
    expect(response.status).toBe(413);
    const body = await response.json();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].status).toBe(413);
    expect(body.errors[0].message).toMatch(
      new RegExp(
        `^Datastore disk space is too high: deployment rejected \\(usage [\\d.]+% is over the limit of ${limit}%\\)$`,
      ),
    );
    expect((await depot.request('/artifactory/libs/over/limit.txt')).status).toBe(404);
    expect(await depot.services.db.selectFrom('blobs').select('sha256').execute()).toEqual(
      blobsBefore,
    );
    expect(readdirSync(join(depot.services.filestore.root, '_tmp'))).toEqual([]);
    expect((await maintenance()).storageUsage).toMatchObject({ warning: true, limitReached: true });
  });

  it('deploys again once quota control is off', async () => {
    const off = await depot.request('/ui/api/v1/ui/maintenance', {
      method: 'PUT',
      body: JSON.stringify(DEFAULT_MAINTENANCE),
      headers: { 'content-type': 'application/json' },
    });
    expect(off.status).toBe(200);
    expect((await put('over/limit.txt', 'fits again')).status).toBe(201);
    expect((await maintenance()).storageUsage).toMatchObject({
      warning: false,
      limitReached: false,
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { DEFAULT_MAINTENANCE } from '../server/modules/maintenance/settings.ts';
import { MAINTENANCE_MESSAGES } from '../server/modules/maintenance/messages.ts';

/** The Maintenance page's calls: settings, crontime, and the Run Now calls that need no data. */
let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
});
afterAll(() => depot?.close());

const json = (body: unknown) => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const getSettings = async () => (await depot.request('/ui/api/v1/ui/maintenance')).json();
const putSettings = (body: unknown) =>
  depot.request('/ui/api/v1/ui/maintenance', { method: 'PUT', ...json(body) });
const runNow = (job: string) =>
  depot.request(`/ui/api/v1/ui/maintenance/${job}`, { method: 'POST' });

describe('maintenance settings', () => {
  it('answers the spec defaults, disk usage and each job, never run yet', async () => {
    const answer = await getSettings();
    expect(answer).toMatchObject({
      ...DEFAULT_MAINTENANCE,
      quotaControl: false,
      storageLimit: -1,
      storageWarning: -1,
      storageUsage: { warning: false, limitReached: false },
    });
    expect(answer.storageUsage.usedPercent).toBeGreaterThan(0);
    expect(Object.keys(answer.jobs)).toEqual([
      'garbageCollection',
      'cleanUnusedCache',
      'cleanVirtualRepo',
      'compress',
      'prune',
    ]);
    expect(answer.jobs.garbageCollection).toMatchObject({
      title: 'Garbage Collection',
      running: false,
      lastRun: null,
    });
    // Scheduled by the default cron: nightly at 02:00.
    expect(new Date(answer.jobs.garbageCollection.nextRun).getSeconds()).toBe(0);
    expect(answer.jobs.compress.nextRun).toBeNull();
  });

  it('saves the form and reschedules the jobs', async () => {
    const next = {
      ...DEFAULT_MAINTENANCE,
      garbageCollectorCron: '0 30 3 * * ?',
      quotaControl: true,
      storageLimit: 100,
      storageWarning: 95,
    };
    const response = await putSettings(next);
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toMatchObject({ info: 'Successfully updated maintenance settings', ...next });
    const nextRun = new Date(answer.jobs.garbageCollection.nextRun);
    expect([nextRun.getHours(), nextRun.getMinutes()]).toEqual([3, 30]);
    expect(await getSettings()).toMatchObject(next);
  });

  it.each([
    [{ garbageCollectorCron: 'every night' }, 'garbageCollectorCron', 'invalidCron'],
    [{ cleanUnusedCachedCron: '0 0 25 * * ?' }, 'cleanUnusedCachedCron', 'invalidCron'],
    [{ cleanVirtualRepoCron: '  ' }, 'cleanVirtualRepoCron', 'required'],
    [{ quotaControl: true, storageLimit: 93, storageWarning: 80 }, 'storageLimit', 'percentSteps'],
    [
      { quotaControl: true, storageLimit: 90, storageWarning: -1 },
      'storageWarning',
      'percentSteps',
    ],
    [
      { quotaControl: true, storageLimit: 80, storageWarning: 80 },
      'storageWarning',
      'warningBelowLimit',
    ],
    [
      { quotaControl: false, storageLimit: 101, storageWarning: -1 },
      'storageLimit',
      'percentSteps',
    ],
  ] as const)('refuses %j, naming %s, and keeps what was saved', async (change, field, message) => {
    const before = await getSettings();
    const response = await putSettings({ ...DEFAULT_MAINTENANCE, ...change });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ status: 400, message: MAINTENANCE_MESSAGES[message], field }],
    });
    const after = await getSettings();
    expect({ ...after, storageUsage: undefined }).toEqual({ ...before, storageUsage: undefined });
  });

  it('refuses a body that is not the form', async () => {
    const response = await putSettings({ ...DEFAULT_MAINTENANCE, storageLimit: 'lots' });
    expect(response.status).toBe(400);
    const unknown = await putSettings({ ...DEFAULT_MAINTENANCE, extra: 1 });
    expect(unknown.status).toBe(400);
  });
});

describe('GET /ui/crontime', () => {
  it('answers the next run of a Quartz cron', async () => {
    const response = await depot.request(
      `/ui/api/v1/ui/crontime?cron=${encodeURIComponent('0 15 4 ? * MON')}&isReplication=false`,
    );
    expect(response.status).toBe(200);
    const answer = await response.json();
    const next = new Date(answer.nextRun);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(answer.nextRunMillis).toBe(next.getTime());
    // Quartz counts Sunday as 1: MON is Monday.
    expect([next.getDay(), next.getHours(), next.getMinutes()]).toEqual([1, 4, 15]);
  });

  it.each([
    ['not a cron', MAINTENANCE_MESSAGES.invalidCron],
    ['0 0 * * *', MAINTENANCE_MESSAGES.invalidCron],
    ['0 0 0 1 1 ? 2001', MAINTENANCE_MESSAGES.invalidCron],
    ['', MAINTENANCE_MESSAGES.required],
  ])('refuses %j with 400 "%s"', async (cron, message) => {
    const response = await depot.request(`/ui/api/v1/ui/crontime?cron=${encodeURIComponent(cron)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ status: 400, message, field: 'cron' }],
    });
  });
});

describe('Run Now', () => {
  it('compresses the internal database and says how big it is', async () => {
    const response = await runNow('compress');
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.sizeBefore).toBeGreaterThan(0);
    expect(answer.sizeAfter).toBeGreaterThan(0);
    expect(answer.info).toMatch(
      /^Compressed the internal database: [\d.]+ (MB|KB|GB) before, [\d.]+ (MB|KB|GB) after$/,
    );
  });

  it('records each run; the page shows the last one and its result', async () => {
    await runNow('cleanVirtualRepo');
    const { jobs } = await getSettings();
    expect(jobs.cleanVirtualRepo.lastRun).toMatchObject({
      job: 'cleanVirtualRepo',
      trigger: 'manual',
      outcome: 'success',
      info: 'Removed 0 cached items from virtual repositories',
    });
    expect(Date.parse(jobs.cleanVirtualRepo.lastRun.finishedAt)).toBeGreaterThanOrEqual(
      Date.parse(jobs.cleanVirtualRepo.lastRun.startedAt),
    );
    expect(jobs.compress.lastRun.outcome).toBe('success');
  });

  it('cleans what was recorded against a virtual repository', async () => {
    await depot.services.repositories.create({
      key: 'v',
      rclass: 'virtual',
      packageType: 'generic',
    });
    const virtual = await depot.services.repositories.findRow('v');
    await depot.services.db
      .insertInto('remote_misses')
      .values({
        repository_id: virtual!.id,
        path: 'a/b.jar',
        expires_at: new Date(Date.now() + 60000),
      })
      .execute();
    expect(await (await runNow('cleanVirtualRepo')).json()).toEqual({
      info: 'Removed 1 cached items from virtual repositories',
      items: 1,
    });
    expect(await (await runNow('cleanVirtualRepo')).json()).toMatchObject({ items: 0 });
  });

  it('answers 404 for a job that does not exist', async () => {
    expect((await runNow('defragment')).status).toBe(404);
  });
});

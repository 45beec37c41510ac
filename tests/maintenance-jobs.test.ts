import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { DEFAULT_MAINTENANCE } from '../server/modules/maintenance/settings.ts';

/**
 * The maintenance jobs against a real server: garbage collection fired by its cron, the
 * unused-cache cleanup by download statistics, pruning of files nothing refers to. The grace
 * period is 0 here (DEPOT_GC_GRACE_SECONDS), so what is unreferenced goes at once.
 */
let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot({ DEPOT_GC_GRACE_SECONDS: '0' });
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
  await depot.services.trash.updateConfig({ enabled: false });
});
afterAll(() => depot?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const put = (path: string, body: string) =>
  depot.request(`/artifactory/${path}`, { method: 'PUT', body });
const saveSettings = (change: object) =>
  depot.request('/ui/api/v1/ui/maintenance', {
    method: 'PUT',
    body: JSON.stringify({ ...DEFAULT_MAINTENANCE, ...change }),
    headers: { 'content-type': 'application/json' },
  });
const runNow = async (job: string) =>
  (await depot.request(`/ui/api/v1/ui/maintenance/${job}`, { method: 'POST' })).json();
const onDisk = (text: string) => existsSync(depot.services.filestore.pathOf(sha256(text)));

describe('garbage collection', () => {
  it('runs by its cron and records the run', async () => {
    await put('libs/gone.bin', 'collected by cron');
    await depot.request('/artifactory/libs/gone.bin', { method: 'DELETE' });
    expect((await saveSettings({ garbageCollectorCron: '* * * * * ?' })).status).toBe(200);
    const deadline = Date.now() + 15000;
    let run;
    while (Date.now() < deadline) {
      run = await depot.services.db
        .selectFrom('job_runs')
        .selectAll()
        .where('job', '=', 'garbageCollection')
        .where('trigger', '=', 'cron')
        .where('outcome', '=', 'success')
        .executeTakeFirst();
      if (run) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await saveSettings({});
    expect(run?.info).toMatch(/^Garbage collection freed \d+ binaries/);
    expect(onDisk('collected by cron')).toBe(false);
  });

  it('Run Now says what it freed', async () => {
    await put('libs/freed.bin', 'twenty bytes of data');
    await depot.request('/artifactory/libs/freed.bin', { method: 'DELETE' });
    expect(await runNow('garbageCollection')).toEqual({
      info: 'Garbage collection freed 1 binaries (20 bytes)',
      binaries: 1,
      bytes: 20,
    });
  });
});

describe('download statistics', () => {
  it('counts downloads, flushes them in a batch, and answers ?stats in Artifactory shape', async () => {
    await put('libs/stats/tool.bin', 'counted content');
    const before = Date.now();
    for (let i = 0; i < 3; i++)
      expect(await (await depot.request('/artifactory/libs/stats/tool.bin')).text()).toBe(
        'counted content',
      );
    // HEAD, a not-modified answer and a later range are no downloads.
    await depot.request('/artifactory/libs/stats/tool.bin', { method: 'HEAD' });
    await depot.request('/artifactory/libs/stats/tool.bin', { headers: { range: 'bytes=3-5' } });
    const stats = await (
      await depot.request('/artifactory/api/storage/libs/stats/tool.bin?stats')
    ).json();
    expect(stats).toMatchObject({
      uri: expect.stringMatching(/\/artifactory\/api\/storage\/libs\/stats\/tool\.bin$/),
      downloadCount: 3,
      lastDownloadedBy: 'admin',
      remoteDownloadCount: 0,
      remoteLastDownloaded: 0,
    });
    expect(stats.lastDownloaded).toBeGreaterThanOrEqual(before - 1000);

    await depot.services.downloadStats.flush();
    const row = await depot.services.db
      .selectFrom('download_stats')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(Number(row.download_count)).toBe(3);
    // After the flush the answer is the same, read from the database alone.
    expect(
      await (await depot.request('/artifactory/api/storage/libs/stats/tool.bin?stats')).json(),
    ).toEqual(stats);
  });

  it('answers 0 for a file nobody downloaded, and 400 for a folder', async () => {
    await put('libs/stats/fresh.bin', 'fresh');
    expect(
      await (await depot.request('/artifactory/api/storage/libs/stats/fresh.bin?stats')).json(),
    ).toMatchObject({ downloadCount: 0, lastDownloaded: 0 });
    const folder = await depot.request('/artifactory/api/storage/libs/stats?stats');
    expect(folder.status).toBe(400);
  });

  it('forgets a file’s statistics when the file is deleted', async () => {
    await depot.request('/artifactory/libs/stats/tool.bin', { method: 'DELETE' });
    await depot.request('/artifactory/libs/stats/fresh.bin');
    await depot.services.downloadStats.flush();
    const rows = await depot.services.db
      .selectFrom('download_stats')
      .innerJoin('nodes', 'nodes.id', 'download_stats.node_id')
      .select('nodes.path')
      .execute();
    expect(rows).toEqual([{ path: 'stats/fresh.bin' }]);
  });

  it('counts a download whose flush is under way when the statistics are read', async () => {
    await put('libs/stats/busy.bin', 'read while flushed');
    const repo = await depot.services.artifacts.repository('libs');
    const node = await depot.services.artifacts.findNode(repo.id, 'stats/busy.bin');
    const { downloadStats } = depot.services;
    for (let round = 1; round <= 5; round++) {
      await depot.request('/artifactory/libs/stats/busy.bin');
      // The count is neither pending nor stored while the flush writes it: a read then
      // must wait for the flush rather than miss the count.
      const flushed = downloadStats.flush();
      const during = await downloadStats.get(node!.id);
      await flushed;
      expect(during.downloadCount).toBe(round);
    }
    await depot.request('/artifactory/libs/stats/busy.bin', { method: 'DELETE' });
  });
});

describe('unused cached artifacts', () => {
  async function cache(repo: string, path: string, content: string) {
    const row = await depot.services.repositories.findRow(repo);
    const staged = await depot.services.filestore.stage(Readable.from([Buffer.from(content)]));
    await depot.services.artifacts.recordCachedFile(row!, path, staged, 'anonymous');
  }
  const cachedAt = (repo: string, hoursAgo: number) =>
    depot.services.db
      .updateTable('nodes')
      .set({ created_at: new Date(Date.now() - hoursAgo * 3600 * 1000) })
      .where('repository_id', '=', (eb) =>
        eb.selectFrom('repositories').select('id').where('key', '=', repo),
      )
      .execute();

  it('removes what nobody downloaded within the period, keeps what was used', async () => {
    await depot.services.repositories.create({
      key: 'upstream-cache',
      rclass: 'remote',
      packageType: 'generic',
      url: 'http://127.0.0.1:9/',
      unusedArtifactsCleanupPeriodHours: 2,
    });
    await depot.services.repositories.create({
      key: 'kept-forever',
      rclass: 'remote',
      packageType: 'generic',
      url: 'http://127.0.0.1:9/',
    });
    await cache('upstream-cache', 'org/unused.jar', 'unused cached content');
    await cache('upstream-cache', 'org/used.jar', 'used');
    await cache('kept-forever', 'org/old.jar', 'old but kept');
    await cachedAt('upstream-cache', 3);
    await cachedAt('kept-forever', 3000);
    // A download now: used within the period.
    expect((await depot.request('/artifactory/upstream-cache/org/used.jar')).status).toBe(200);

    expect(await runNow('cleanUnusedCache')).toEqual({
      info: 'Removed 1 unused cached artifacts (21 bytes) from 1 remote repositories',
      repositories: 1,
      files: 1,
      bytes: 21,
    });
    const paths = await depot.services.db.selectFrom('nodes').select('path').execute();
    const all = paths.map((p) => p.path);
    expect(all).toContain('org/used.jar');
    expect(all).toContain('org/old.jar');
    expect(all).not.toContain('org/unused.jar');
    // The blob is garbage now; the next collection frees it.
    await runNow('garbageCollection');
    expect(onDisk('unused cached content')).toBe(false);
    expect(onDisk('used')).toBe(true);
  });

  it('accepts the period in the repository configuration and answers it', async () => {
    const config = await depot.services.repositories.get('kept-forever');
    expect(config.unusedArtifactsCleanupPeriodHours).toBe(0);
    const upstream = await depot.services.repositories.get('upstream-cache');
    expect(upstream.unusedArtifactsCleanupPeriodHours).toBe(2);
  });
});

describe('prune', () => {
  const plant = (name: string, hoursAgo: number) => {
    const path = join(depot.services.filestore.root, name.slice(0, 2), name.slice(2, 4), name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'orphan bytes');
    const then = new Date(Date.now() - hoursAgo * 3600 * 1000);
    utimesSync(path, then, then);
    utimesSync(dirname(path), then, then);
    return path;
  };

  it('removes files no blob refers to and empty shard directories, never _tmp', async () => {
    await put('libs/prune/kept.bin', 'referenced content');
    const orphan = plant(sha256('crashed before its row'), 2);
    const upload = join(depot.services.filestore.root, '_tmp', 'upload-in-progress');
    writeFileSync(upload, 'half an upload');
    const before = readdirSync(depot.services.filestore.root).length;

    const answer = await runNow('prune');
    expect(answer).toMatchObject({ files: 1, bytes: 'orphan bytes'.length });
    expect(answer.directories).toBeGreaterThanOrEqual(1);
    expect(answer.info).toBe(
      `Pruned 1 unreferenced files (12 bytes) and ${answer.directories} empty directories`,
    );
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(dirname(orphan))).toBe(false);
    expect(existsSync(upload)).toBe(true);
    expect(onDisk('referenced content')).toBe(true);
    expect(readdirSync(depot.services.filestore.root).length).toBeLessThan(before);
    expect(await (await depot.request('/artifactory/libs/prune/kept.bin')).text()).toBe(
      'referenced content',
    );
    // The page shows the run; a JSON answer last also lets the streamed download above end
    // on the server before the test closes it (a busy keep-alive socket would hold close).
    const { jobs } = await (await depot.request('/ui/api/v1/ui/maintenance')).json();
    expect(jobs.prune.lastRun).toMatchObject({ outcome: 'success', info: answer.info });
  });
});

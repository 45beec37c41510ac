import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_UPKEEP_JOB } from '../server/modules/maintenance/maintenance.ts';
import { buildInfo } from './helpers/build-info.ts';
import {
  adminAuth,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Retention (docs/retention.md): a policy's preview tells the items and the bytes a run
 * frees, the run frees exactly those bytes and archives those items; the archive search
 * finds them and restore puts them back byte for byte with their properties; a delete run
 * is undone; nothing a kept build needs is ever taken.
 */
let depot: TestDepot;
const API = '/ui/api/v1/ui/retention';
const POLICIES = `${API}/archive/policies`;

const content = {
  old: randomBytes(40_000),
  shared: randomBytes(30_000),
  built: randomBytes(20_000),
  fresh: randomBytes(10_000),
  doomed: randomBytes(25_000),
  // At the cold store's rate below, its copy takes two seconds: a run that is surely in flight.
  slow: randomBytes(512 * 1024),
  slower: randomBytes(512 * 1024),
};
const COLD_STORE_KB_PER_SECOND = 256;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  depot.app.inject({
    method,
    url,
    headers: adminAuth(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Bytes of every blob on disk: what a run frees is measured here. */
function filestoreBytes(): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '_tmp') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else total += statSync(path).size;
    }
  };
  walk(depot.config.filestoreDir);
  return total;
}

const policy = (key: string, extra: Record<string, unknown>) => ({
  key,
  cronExp: '0 0 3 ? * SUN',
  enabled: false,
  action: 'archive',
  policyBase: 'FORM',
  ...extra,
});

async function savePolicy(body: Record<string, unknown>) {
  const response = await call('POST', POLICIES, body);
  expect(response.statusCode, response.body).toBe(201);
}

interface Execution {
  executionId: number;
  startTime: number;
  policyName: string;
  state: string;
  endTime: number | null;
  items: number;
  freedBytes: number;
}

const runsOf = async (key: string) =>
  ((await call('GET', `${API}/archive/executions`)).json() as Execution[]).filter(
    (run) => run.policyName === key,
  );

/** Triggers a policy and waits (with a deadline) for this run to end; answers its execution. */
async function runToEnd(key: string) {
  const earlier = Math.max(0, ...(await runsOf(key)).map((run) => run.executionId));
  const triggered = await call('POST', `${POLICIES}/${key}/trigger`);
  expect(triggered.statusCode, triggered.body).toBe(200);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ended = (await runsOf(key)).find(
      (run) => run.executionId > earlier && run.endTime !== null,
    );
    if (ended) return ended;
    if (Date.now() > deadline) throw new Error(`the run of ${key} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls (with a deadline) the policy's newest execution until `done` holds for it. */
async function newestRun(key: string, done: (run: Execution) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [run] = await runsOf(key);
    if (run && done(run)) return run;
    if (Date.now() > deadline) throw new Error(`the run of ${key} did not get there`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const download = (path: string) => call('GET', `/artifactory/${path}`);
const storageOf = async (path: string) =>
  (await call('GET', `/artifactory/api/storage/${path}`)).json() as {
    checksums: { sha1: string; sha256: string; md5: string };
  };
const propertiesOf = async (path: string) =>
  (await call('GET', `/artifactory/api/storage/${path}?properties`)).json().properties;

async function search(aql: string) {
  const response = await depot.app.inject({
    method: 'POST',
    url: `${API}/search`,
    headers: { ...adminAuth(), 'content-type': 'text/plain' },
    payload: aql,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.results as { repo: string; path: string; name: string }[];
}

beforeAll(async () => {
  depot = await startTestDepot({
    DEPOT_COLD_STORE_KB_PER_SECOND: String(COLD_STORE_KB_PER_SECOND),
  });
  await createRepository(depot, 'libs', 'local');
  await createRepository(depot, 'other', 'local');
  await deployFile(depot, 'libs', 'old/app-1.0.bin;team=core;stage=old', content.old);
  await deployFile(depot, 'libs', 'old/shared-1.0.bin', content.shared);
  await deployFile(depot, 'other', 'copies/shared-1.0.bin', content.shared);
  await deployFile(depot, 'libs', 'old/built-1.0.bin', content.built);
  await deployFile(depot, 'libs', 'new/app-2.0.bin', content.fresh);
  // A kept build lists built-1.0.bin's content as its artifact.
  const document = buildInfo({
    name: 'acme',
    number: '7',
    modules: [{ id: 'acme:app:1.0', artifacts: [{ name: 'built-1.0.bin', content: '' }] }],
  });
  const { createHash } = await import('node:crypto');
  const artifact = document.modules[0].artifacts[0] as Record<string, string>;
  for (const kind of ['sha1', 'sha256', 'md5'])
    artifact[kind] = createHash(kind).update(content.built).digest('hex');
  const stored = await call('PUT', '/artifactory/api/build', document);
  expect(stored.statusCode, stored.body).toBe(204);
}, 60_000);

afterAll(async () => {
  await depot?.close();
});

describe('retention policies', () => {
  it('refuses a policy without a schedule or with a bad one, in the spec words', async () => {
    const empty = await call('POST', POLICIES, policy('no-cron', { cronExp: '', paths: ['old'] }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe("Schedule Execution can't be empty");
    const bad = await call('POST', POLICIES, policy('bad-cron', { cronExp: 'every day' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe('The cron expression is invalid');
    const nothing = await call('POST', POLICIES, policy('everything', {}));
    expect(nothing.statusCode).toBe(400);
    const aql = await call(
      'POST',
      POLICIES,
      policy('bad-aql', { policyBase: 'AQL', aqlQuery: 'items.find(' }),
    );
    expect(aql.statusCode).toBe(400);
    expect(aql.json().errors[0].field).toBe('aqlQuery');
  });

  it('converts a form to AQL that chooses the same items', async () => {
    const form = policy('form', {
      repositories: ['libs'],
      paths: ['old'],
      excludeProperties: ['keep=true'],
    });
    const converted = (await call('POST', `${POLICIES}/convertToAql`, form)).json();
    expect(converted.aqlQuery).toBe(
      'items.find({"$and":[{"$and":[{"repo":"libs"},{"path":{"$match":"old"}}]},{"@keep":{"$nmatch":"true"}}]})',
    );
    const asAql = policy('as-aql', { policyBase: 'AQL', aqlQuery: converted.aqlQuery });
    const fromForm = (await call('POST', `${POLICIES}/preview`, form)).json();
    const fromAql = (await call('POST', `${POLICIES}/preview`, asAql)).json();
    expect(fromAql).toEqual(fromForm);
  });

  it('previews N items and B bytes freed; the run frees B on disk and archives N', async () => {
    const archive = policy('old-libs', { repositories: ['libs'], paths: ['old'] });
    await savePolicy(archive);
    const preview = (await call('POST', `${POLICIES}/preview`, archive)).json();
    // The kept build's file is never chosen; the shared content frees nothing.
    expect(preview.count).toBe(2);
    expect(preview.totalSize).toBe(content.old.length + content.shared.length);
    expect(preview.freedBytes).toBe(content.old.length);
    expect(preview.info).toContain('2 item(s)');

    const before = filestoreBytes();
    const run = await runToEnd('old-libs');
    expect(run.state).toBe('COMPLETE');
    expect(run.items).toBe(preview.count);
    expect(run.freedBytes).toBe(preview.freedBytes);
    expect(before - filestoreBytes()).toBe(preview.freedBytes);

    expect((await download('libs/old/app-1.0.bin')).statusCode).toBe(404);
    expect((await download('libs/old/shared-1.0.bin')).statusCode).toBe(404);
    expect((await download('other/copies/shared-1.0.bin')).rawPayload).toEqual(content.shared);
    expect((await download('libs/old/built-1.0.bin')).rawPayload).toEqual(content.built);

    const found = await search('items.find({"repo":"libs"})');
    expect(found.map((item) => `${item.path}/${item.name}`).sort()).toEqual([
      'old/app-1.0.bin',
      'old/shared-1.0.bin',
    ]);
    expect(await search('items.find({"@team":"core"})')).toHaveLength(1);
    const info = (await call('GET', `${API}/archive/storageinfo`)).json().binariesSummary;
    expect(info.artifactsCount).toBe(2);
  });

  it('never takes an item a kept build references, even when named', async () => {
    const named = policy('built', { names: ['built-*'] });
    await savePolicy(named);
    expect((await call('POST', `${POLICIES}/preview`, named)).json().count).toBe(0);
    const run = await runToEnd('built');
    expect(run.items).toBe(0);
    expect((await download('libs/old/built-1.0.bin')).rawPayload).toEqual(content.built);
  });

  it('restores archived items byte-identical, with their properties and checksums', async () => {
    const restored = await call('POST', `${API}/restore`, {
      restoreToOriginal: true,
      itemsToRestore: [
        { repo: 'libs', path: 'old', name: 'app-1.0.bin' },
        { repo: 'libs', path: 'old', name: 'shared-1.0.bin' },
      ],
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().restored).toBe(2);
    expect((await download('libs/old/app-1.0.bin')).rawPayload).toEqual(content.old);
    expect((await download('libs/old/shared-1.0.bin')).rawPayload).toEqual(content.shared);
    expect(await propertiesOf('libs/old/app-1.0.bin')).toEqual({ stage: ['old'], team: ['core'] });
    const { createHash } = await import('node:crypto');
    expect((await storageOf('libs/old/app-1.0.bin')).checksums).toMatchObject({
      sha256: createHash('sha256').update(content.old).digest('hex'),
      sha1: createHash('sha1').update(content.old).digest('hex'),
    });
    expect(await search('items.find({"repo":"libs"})')).toEqual([]);
    const restores = (await call('GET', `${API}/restore/executions`)).json();
    expect(restores[0]).toMatchObject({ state: 'COMPLETE', items: 2 });
  });

  it('restores to a destination the restore modal names, never over a file', async () => {
    await deployFile(depot, 'libs', 'tmp/t.bin;origin=tmp', 'temporary');
    await savePolicy(policy('tmp', { paths: ['tmp'] }));
    expect((await runToEnd('tmp')).items).toBe(1);
    const elsewhere = await call('POST', `${API}/restore`, {
      restoreToOriginal: false,
      centralDestinationPath: 'other/restored',
      itemsToRestore: [{ repo: 'libs', path: 'tmp', name: 't.bin' }],
    });
    expect(elsewhere.json().restored).toBe(1);
    expect((await download('other/restored/libs/tmp/t.bin')).body).toBe('temporary');
    expect(await propertiesOf('other/restored/libs/tmp/t.bin')).toEqual({ origin: ['tmp'] });

    // A file deployed where an archived one was is never overwritten by its restore.
    await deployFile(depot, 'libs', 'tmp/u.bin', 'archived');
    expect((await runToEnd('tmp')).items).toBe(1);
    await deployFile(depot, 'libs', 'tmp/u.bin', 'deployed since');
    const refused = await call('POST', `${API}/restore`, {
      restoreToOriginal: true,
      itemsToRestore: [{ repo: 'libs', path: 'tmp', name: 'u.bin' }],
    });
    expect(refused.json()).toMatchObject({ restored: 0, failures: [{ item: 'libs/tmp/u.bin' }] });
    expect(refused.json().failures[0].reason).toContain('exists already');
    expect((await download('libs/tmp/u.bin')).body).toBe('deployed since');
    expect(await search('items.find({"name":"u.bin"})')).toHaveLength(1);
  });

  it('undoes a delete run: everything it deleted comes back', async () => {
    await deployFile(depot, 'libs', 'doomed/d.bin;owner=ops', content.doomed);
    const doomed = policy('doomed', { action: 'delete', paths: ['doomed'] });
    await savePolicy(doomed);
    const before = filestoreBytes();
    const run = await runToEnd('doomed');
    expect(run.items).toBe(1);
    expect(before - filestoreBytes()).toBe(content.doomed.length);
    expect((await download('libs/doomed/d.bin')).statusCode).toBe(404);
    // A deleted item is not in the archive's search; only the undo brings it back.
    expect(await search('items.find({"repo":"libs","path":"doomed"})')).toEqual([]);

    const undone = await call('POST', `${POLICIES}/doomed/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().restored).toBe(1);
    expect((await download('libs/doomed/d.bin')).rawPayload).toEqual(content.doomed);
    expect(await propertiesOf('libs/doomed/d.bin')).toEqual({ owner: ['ops'] });
    const again = await call('POST', `${POLICIES}/doomed/undo`);
    expect(again.statusCode).toBe(409);
  });
});

describe('queued runs, stop and delete', () => {
  it('queues Run Now behind a run in flight (PENDING), starts it after, and Stop cancels one', async () => {
    await deployFile(depot, 'libs', 'slow/big.bin', content.slow);
    await deployFile(depot, 'libs', 'queued/q.bin', 'queued');
    await deployFile(depot, 'libs', 'cancelled/c.bin', 'cancelled');
    for (const key of ['slow', 'queued', 'cancelled'])
      await savePolicy(policy(key, { paths: [key] }));

    const first = await call('POST', `${POLICIES}/slow/trigger`);
    expect(first.json()).toMatchObject({ state: 'started', info: "Policy 'slow' is running" });
    await newestRun('slow', (run) => run.state === 'IN_PROGRESS');
    const second = await call('POST', `${POLICIES}/queued/trigger`);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({
      state: 'queued',
      info: "Policy 'queued' is pending: it starts when the run in progress ends",
    });
    expect((await call('POST', `${POLICIES}/cancelled/trigger`)).json().state).toBe('queued');
    expect((await runsOf('queued'))[0]).toMatchObject({ state: 'PENDING', endTime: null });

    const stopped = await call('POST', `${POLICIES}/cancelled/stop`);
    expect(stopped.json().info).toBe("The pending run of policy 'cancelled' is cancelled");

    const queued = await newestRun('queued', (run) => run.endTime !== null);
    const slow = (await runsOf('slow'))[0];
    expect(slow).toMatchObject({ state: 'COMPLETE', items: 1 });
    expect(queued).toMatchObject({ state: 'COMPLETE', items: 1 });
    expect(queued.startTime).toBeGreaterThanOrEqual(slow.endTime!);
    expect((await runsOf('cancelled'))[0]).toMatchObject({ state: 'STOPPED_BY_USER', items: 0 });
    expect((await download('libs/cancelled/c.bin')).body).toBe('cancelled');
    expect((await download('libs/queued/q.bin')).statusCode).toBe(404);
    expect((await call('POST', `${POLICIES}/cancelled/stop`)).statusCode).toBe(409);
  });

  it('deletes one policy, never while its run is in flight', async () => {
    await deployFile(depot, 'libs', 'slow/big-2.bin', content.slower);
    await call('POST', `${POLICIES}/slow/trigger`);
    await newestRun('slow', (run) => run.state === 'IN_PROGRESS');
    for (const refused of [
      await call('DELETE', `${POLICIES}/slow`),
      await call('POST', `${POLICIES}/delete`, { keys: ['slow'] }),
    ]) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errors[0].message).toBe(
        "Policy 'slow' is running: stop the run, then delete the policy once it has ended",
      );
    }
    expect((await call('GET', `${POLICIES}/slow`)).statusCode).toBe(200);
    await newestRun('slow', (run) => run.endTime !== null);

    const deleted = await call('DELETE', `${POLICIES}/slow`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().info).toBe("Policy 'slow' deleted");
    expect((await call('GET', `${POLICIES}/slow`)).statusCode).toBe(404);
    expect((await call('DELETE', `${POLICIES}/slow`)).statusCode).toBe(404);
  });

  it('previews a policy over thousands of files a batch at a time, shared contents honestly', async () => {
    await createRepository(depot, 'bulk', 'local');
    await createRepository(depot, 'bulk-other', 'local');
    // Rows written straight into the tables: 2,100 contents of i bytes, each in bulk; every
    // third also in a second file of bulk (chosen too), every seventh also in bulk-other (kept).
    await sql`
      insert into blobs (sha256, sha1, size)
      select 'f' || lpad(to_hex(i), 63, '0'), 'f' || lpad(to_hex(i), 39, '0'), i from generate_series(1, 2100) i`.execute(
      depot.db,
    );
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, sha256, size, created_by, modified_by)
      select r.id, 'many/' || f.name, 'many', f.name, false, 'f' || lpad(to_hex(f.i), 63, '0'), f.i, 'admin', 'admin'
        from repositories r,
             lateral (select i, 'f-' || i || '.bin' as name from generate_series(1, 2100) i
                      union all
                      select i, 'dup-' || i || '.bin' from generate_series(3, 2100, 3) i) f
       where r.key = 'bulk'`.execute(depot.db);
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, sha256, size, created_by, modified_by)
      select r.id, 'kept/' || i || '.bin', 'kept', i || '.bin', false, 'f' || lpad(to_hex(i), 63, '0'), i, 'admin', 'admin'
        from repositories r, generate_series(7, 2100, 7) i
       where r.key = 'bulk-other'`.execute(depot.db);
    const sum = (keep: (i: number) => boolean) => {
      let total = 0;
      for (let i = 1; i <= 2100; i += 1) if (keep(i)) total += i;
      return total;
    };
    const preview = (
      await call('POST', `${POLICIES}/preview`, policy('bulk', { repositories: ['bulk'] }))
    ).json();
    expect(preview).toMatchObject({
      count: 2100 + 700,
      totalSize: sum(() => true) + sum((i) => i % 3 === 0),
      freedBytes: sum((i) => i % 7 !== 0),
    });
  }, 60_000);

  it("previews a remote repository's cached artifacts, never its metadata, shared contents honestly", async () => {
    await createRepository(depot, 'cache-remote', 'remote', {
      packageType: 'maven',
      url: 'http://127.0.0.1:9/',
    });
    await createRepository(depot, 'cache-copies', 'local');
    // a-1.0.jar's content is the remote's alone; b-1.0.jar's is also in a local file that
    // stays; maven-metadata.xml is what virtual repositories merge: never chosen.
    await sql`
      insert into blobs (sha256, sha1, size)
      values ('e' || repeat('1', 63), 'e' || repeat('1', 39), 1000),
             ('e' || repeat('2', 63), 'e' || repeat('2', 39), 2000),
             ('e' || repeat('3', 63), 'e' || repeat('3', 39), 300)`.execute(depot.db);
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, sha256, size, created_by, modified_by)
      select r.id, f.parent || '/' || f.name, f.parent, f.name, false, 'e' || repeat(f.digit, 63), f.size, 'admin', 'admin'
        from repositories r,
             (values ('cache-remote', 'org/a/1.0', 'a-1.0.jar', '1', 1000),
                     ('cache-remote', 'org/b/1.0', 'b-1.0.jar', '2', 2000),
                     ('cache-remote', 'org/a', 'maven-metadata.xml', '3', 300),
                     ('cache-copies', 'copies', 'b-1.0.jar', '2', 2000)) f(repo, parent, name, digit, size)
       where r.key = f.repo`.execute(depot.db);
    const preview = (
      await call('POST', `${POLICIES}/preview`, policy('cache', { repositories: ['cache-remote'] }))
    ).json();
    expect(preview).toMatchObject({ count: 2, totalSize: 3000, freedBytes: 1000 });
  });

  it('keeps the embedded database vacuumed, so the preview counts shared contents from the index alone', async () => {
    if (depot.config.databaseUrl) {
      // PostgreSQL's autovacuum does this: the job is not scheduled there.
      expect(depot.maintenance.scheduler.nextRun(EMBEDDED_UPKEEP_JOB)).toBeUndefined();
      return;
    }
    const upkeep = async () => {
      const outcome = await depot.maintenance.scheduler.run(EMBEDDED_UPKEEP_JOB);
      if (!outcome.ran) throw new Error('the upkeep did not run');
      return outcome.result.vacuumed as string[];
    };
    const unmarkedPages = async () => {
      const { rows } = await sql<{ unmarked: number }>`
        select pg_relation_size('nodes') / 8192 - relallvisible as unmarked
        from pg_class where relname = 'nodes'`.execute(depot.db);
      return Number(rows[0]!.unmarked);
    };
    await createRepository(depot, 'upkeep', 'local');
    // Some 200 pages of new folder rows: more than the tenth of the table that calls for a VACUUM.
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, created_by, modified_by)
      select r.id, 'f-' || i, '', 'f-' || i, true, 'admin', 'admin'
        from repositories r, generate_series(1, 20000) i where r.key = 'upkeep'`.execute(depot.db);
    expect(await unmarkedPages()).toBeGreaterThan(128);
    expect(await upkeep()).toContain('nodes');
    // All marked but a page or two whose rows earlier tests' runs just deleted.
    expect(await unmarkedPages()).toBeLessThan(8);
    expect(await upkeep()).not.toContain('nodes');
  });
});

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DepotApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { REQUEST_LOG_FILE } from '../server/logs/request-log.ts';
import { unzip } from './helpers/archives.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * A support bundle of a two-node cluster (docs/support-bundles.md, "Several nodes"): made on
 * one node, it holds the logs and diagnostic report of both, and either node serves it.
 */
describe.runIf(process.env.DEPOT_TEST_DATABASE_URL)('support bundles on a cluster', () => {
  let first: TestDepot;
  let second: DepotApp;
  let secondHome: string;
  let maker: DepotApp | undefined;
  let makerHome: string | undefined;

  beforeAll(async () => {
    // A slow heartbeat: a node stopped in the last test still counts as live (three beats).
    first = await startTestDepot({ DEPOT_NODE_ID: 'bundle-node-a', DEPOT_HEARTBEAT_SECONDS: '60' });
    secondHome = mkdtempSync(join(tmpdir(), 'depot-test-b-'));
    // Its own id and home (its logs), the first node's database and filestore.
    const config = { ...first.config, nodeId: 'bundle-node-b', home: secondHome };
    second = await buildApp(config, createLogger(config));
  });
  afterAll(async () => {
    await maker?.app.close();
    if (makerHome) rmSync(makerHome, { recursive: true, force: true });
    await second?.app.close();
    await first?.close();
    if (secondHome) rmSync(secondHome, { recursive: true, force: true });
  });

  const on = (node: DepotApp, method: 'GET' | 'POST', url: string, payload?: object) =>
    node.app.inject({ method, url, headers: adminAuth(), payload });

  async function finished(id: string, node: DepotApp = first) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const list = (await on(node, 'GET', '/ui/api/v1/ui/userSupport/listBundles')).json();
      const bundle = list.find((item: { id: string }) => item.id === id);
      if (bundle.status !== 'in progress') return bundle;
      if (Date.now() > deadline) throw new Error(`bundle ${id} still in progress`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("holds every node's logs and report, and downloads from either node", async () => {
    // A request each node alone answered over HTTP, so that its request log names it.
    for (const [node, marker] of [
      [first, 'marker-of-node-a'],
      [second, 'marker-of-node-b'],
    ] as const) {
      const address = await node.app.listen({ port: 0, host: '127.0.0.1' });
      await (await fetch(`${address}/artifactory/api/storage/${marker}`)).arrayBuffer();
    }

    const started = await on(first, 'POST', '/artifactory/api/system/support/bundle', {
      name: 'both nodes',
    });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json();
    expect(await finished(id)).toMatchObject({ status: 'success', nodeId: 'bundle-node-a' });

    // The node that did not make it serves it: the zip is an artifact of the shared store.
    const download = await on(second, 'GET', `/ui/api/v1/ui/userSupport/downloadBundle/${id}`);
    expect(download.statusCode, download.body).toBe(200);
    const entries = await unzip(download.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest.nodes).toEqual({ 'bundle-node-a': 'included', 'bundle-node-b': 'included' });
    expect(manifest.entries.sort()).toEqual([...entries.keys()].sort());

    const logOf = (node: string) => entries.get(`logs/${node}/${REQUEST_LOG_FILE}`)?.toString();
    expect(logOf('bundle-node-a')).toContain('marker-of-node-a');
    expect(logOf('bundle-node-a')).not.toContain('marker-of-node-b');
    expect(logOf('bundle-node-b')).toContain('marker-of-node-b');
    for (const node of ['bundle-node-a', 'bundle-node-b']) {
      const report = JSON.parse(entries.get(`diagnostics/${node}/report.json`)!.toString());
      expect(report.header.nodejsVersion).toBe(process.version);
      expect(JSON.parse(entries.get(`diagnostics/${node}/node.json`)!.toString()).id).toBe(node);
    }
    // The answers' files on the shared filestore went once they were in the zip.
    expect(existsSync(join(first.config.filestoreDir, '_support', id))).toBe(false);
  });

  it('goes without the nodes that do not answer, once the wait runs out', async () => {
    // Both nodes stop: each stays live (its heartbeat at most three beats old), so it is
    // asked for its part, and never writes it. A third node makes the bundle, waiting 2 s.
    await second.app.close();
    await first.app.close();
    const waitSeconds = 2;
    makerHome = mkdtempSync(join(tmpdir(), 'depot-test-c-'));
    const config = {
      ...first.config,
      nodeId: 'bundle-maker',
      home: makerHome,
      supportBundlePartWaitSeconds: waitSeconds,
    };
    maker = await buildApp(config, createLogger(config));

    const asked = Date.now();
    const started = await on(maker, 'POST', '/artifactory/api/system/support/bundle', {
      name: 'two nodes silent',
    });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json();
    expect(await finished(id, maker)).toMatchObject({ status: 'success' });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(waitSeconds * 1000);

    const download = await on(maker, 'GET', `/ui/api/v1/ui/userSupport/downloadBundle/${id}`);
    expect(download.statusCode, download.body).toBe(200);
    const entries = await unzip(download.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest.nodes).toEqual({
      'bundle-maker': 'included',
      'bundle-node-a': `did not answer within ${waitSeconds} s`,
      'bundle-node-b': `did not answer within ${waitSeconds} s`,
    });
    const names = [...entries.keys()];
    expect(manifest.entries.sort()).toEqual([...names].sort());
    expect(names).toContain('diagnostics/bundle-maker/report.json');
    expect(names.filter((name) => /bundle-node-[ab]/.test(name))).toEqual([]);
    // Nothing of theirs was written, and the maker leaves nothing behind either.
    const supportDir = join(first.config.filestoreDir, '_support');
    expect(existsSync(supportDir) ? readdirSync(supportDir) : []).toEqual([]);
  });
});

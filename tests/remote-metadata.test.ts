import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LOG_FILE } from '../server/logger.ts';
import { isMetadataPath } from '../server/modules/remote/metadata-patterns.ts';
import { REMOTE_MESSAGES } from '../server/modules/remote/messages.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';

/**
 * The metadata retrieval cache: cached metadata is checked upstream again (conditionally)
 * once older than retrievalCachePeriodSecs; artifacts never are. Ageing a cache entry is done
 * by moving its check time back in the database, as the clock would.
 */
let depot: HttpDepot;
let upstream: ScriptedUpstream;
let vanishing: ScriptedUpstream;

const METADATA = '/repo/org/app/maven-metadata.xml';
const JAR = '/repo/org/app/1.0/app-1.0.jar';

const createRemote = (key: string, body: object) =>
  depot.request(`/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'remote', ...body }),
  });
const get = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return { status: response.status, body: await response.text() };
};

/** Makes a cached file's last upstream check `seconds` older. */
/**
 * Makes a cached file's last upstream check `seconds` older. A miss is streamed to its
 * client before the cache records it, so this waits for the record to exist.
 */
async function age(repoKey: string, path: string, seconds: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { numAffectedRows } = await sql`
      update remote_cache_entries set checked_at = checked_at - make_interval(secs => ${seconds})
      where node_id = (select n.id from nodes n join repositories r on r.id = n.repository_id
                       where r.key = ${repoKey} and n.path = ${path})`.execute(depot.db);
    if (Number(numAffectedRows) === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${repoKey}/${path} was never recorded in the cache`);
}

beforeAll(async () => {
  [depot, upstream, vanishing] = await Promise.all([
    startHttpDepot(),
    startScriptedUpstream(),
    startScriptedUpstream(),
  ]);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  upstream.file(METADATA, '<metadata><version>1.0</version></metadata>');
  upstream.file(JAR, 'jar 1.0');
  vanishing.file('/repo/index.yaml', 'entries: {}');
  await createRemote('maven-proxy', { packageType: 'maven', url: `${upstream.base}/repo/` });
  await createRemote('charts-proxy', {
    packageType: 'generic',
    url: `${vanishing.base}/repo/`,
    assumedOfflinePeriodSecs: 600,
  });
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close(), vanishing?.close()]);
});

describe('the metadata retrieval cache', () => {
  it('has Artifactory defaults: 7200 s for metadata, 300 s assumed offline', async () => {
    const config = await (await depot.request('/artifactory/api/repositories/maven-proxy')).json();
    expect(config).toMatchObject({ retrievalCachePeriodSecs: 7200, assumedOfflinePeriodSecs: 300 });
  });

  it('serves fresh metadata from the cache', async () => {
    const path = 'maven-proxy/org/app/maven-metadata.xml';
    expect(await get(path)).toEqual({
      status: 200,
      body: '<metadata><version>1.0</version></metadata>',
    });
    expect(await get(path)).toMatchObject({ status: 200 });
    expect(upstream.hits(METADATA)).toBe(1);
  });

  it('revalidates stale metadata with a conditional request; 304 keeps the copy', async () => {
    await age('maven-proxy', 'org/app/maven-metadata.xml', 7201);
    const path = 'maven-proxy/org/app/maven-metadata.xml';
    expect(await get(path)).toEqual({
      status: 200,
      body: '<metadata><version>1.0</version></metadata>',
    });
    expect(upstream.hits(METADATA)).toBe(2);
    const check = upstream.requests.filter((r) => r.path === METADATA)[1];
    expect(check.headers['if-none-match']).toMatch(/^"[0-9a-f]{40}"$/);
    expect(check.headers['if-modified-since']).toBe('Tue, 01 Jul 2025 10:00:00 GMT');
    // The 304 refreshed the check time: fresh again.
    await get(path);
    expect(upstream.hits(METADATA)).toBe(2);
  });

  it('takes changed metadata once stale', async () => {
    upstream.file(METADATA, '<metadata><version>2.0</version></metadata>');
    const path = 'maven-proxy/org/app/maven-metadata.xml';
    expect((await get(path)).body).toContain('1.0'); // still fresh
    await age('maven-proxy', 'org/app/maven-metadata.xml', 7201);
    expect(await get(path)).toEqual({
      status: 200,
      body: '<metadata><version>2.0</version></metadata>',
    });
    expect((await get(path)).body).toContain('2.0');
    expect(upstream.hits(METADATA)).toBe(3);
  });

  it('never revalidates an artifact once cached', async () => {
    expect(await get('maven-proxy/org/app/1.0/app-1.0.jar')).toEqual({
      status: 200,
      body: 'jar 1.0',
    });
    await age('maven-proxy', 'org/app/1.0/app-1.0.jar', 10 * 365 * 86400);
    upstream.file(JAR, 'a jar changed in place');
    expect(await get('maven-proxy/org/app/1.0/app-1.0.jar')).toEqual({
      status: 200,
      body: 'jar 1.0',
    });
    expect(upstream.hits(JAR)).toBe(1);
  });

  it('serves the cached copy when the upstream is unreachable, and logs it', async () => {
    expect(await get('charts-proxy/index.yaml')).toEqual({ status: 200, body: 'entries: {}' });
    await vanishing.close();
    await age('charts-proxy', 'index.yaml', 7201);
    expect(await get('charts-proxy/index.yaml')).toEqual({ status: 200, body: 'entries: {}' });
    await new Promise<void>((resolve) => (depot.app.log as Logger).flush(() => resolve()));
    const log = readFileSync(join(depot.config.home, 'logs', SERVICE_LOG_FILE), 'utf8');
    expect(log).toContain('upstream unavailable: serving the cached copy');
  });

  it('assumes an unreachable upstream offline for assumedOfflinePeriodSecs', async () => {
    const miss = await get('charts-proxy/other.tgz');
    expect(miss.status).toBe(404);
    expect(JSON.parse(miss.body).errors[0].message).toMatch(
      /^Remote repository 'charts-proxy' is assumed offline after a connection error until .+: 'other\.tgz' is not in its cache\.$/,
    );
    const until = await depot.db
      .selectFrom('remote_upstream_state')
      .select('offline_until')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(miss.body).errors[0].message).toBe(
      REMOTE_MESSAGES.assumedOffline('charts-proxy', 'other.tgz', new Date(until.offline_until)),
    );
  });
});

describe('metadata patterns', () => {
  it('name each package type its index files; generic takes them all', () => {
    expect(isMetadataPath('maven', 'org/app/maven-metadata.xml')).toBe(true);
    expect(isMetadataPath('gradle', 'org/app/maven-metadata.xml.sha1')).toBe(true);
    expect(isMetadataPath('maven', 'org/app/1.0/app-1.0.pom')).toBe(false);
    expect(isMetadataPath('npm', '@scope/pkg')).toBe(true);
    expect(isMetadataPath('npm', 'pkg/-/pkg-1.0.0.tgz')).toBe(false);
    expect(isMetadataPath('pypi', 'simple/requests/')).toBe(true);
    expect(isMetadataPath('helm', 'index.yaml')).toBe(true);
    expect(isMetadataPath('debian', 'dists/stable/main/binary-amd64/Packages.gz')).toBe(true);
    expect(isMetadataPath('rpm', 'os/repodata/repomd.xml')).toBe(true);
    expect(isMetadataPath('generic', 'mirror/index.yaml')).toBe(true);
    expect(isMetadataPath('generic', 'mirror/org/maven-metadata.xml')).toBe(true);
    expect(isMetadataPath('generic', 'tools/hammer.txt')).toBe(false);
    expect(isMetadataPath('docker', 'library/alpine/manifests/latest')).toBe(false);
    expect(isMetadataPath('docker', 'library/alpine/3.20/manifest.json')).toBe(true);
    expect(isMetadataPath('docker', 'alpine/sha256__ab12/manifest.json')).toBe(false);
    expect(isMetadataPath('docker', 'alpine/_blobs/sha256__ab12')).toBe(false);
    expect(isMetadataPath('generic', 'alpine/3.20/manifest.json')).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpDepot } from './helpers/http-depot.ts';
import {
  startProxyOfScriptedUpstream,
  type ScriptedUpstream,
} from './helpers/scripted-upstream.ts';

/**
 * Stream while caching. The upstream sends the first part of a body, then waits for the test
 * to let it go on: a client that reads bytes while the upstream is held has them before the
 * upstream finished, with no clock involved.
 */
let depot: HttpDepot;
let upstream: ScriptedUpstream;

const PART = 64 * 1024;
const partOf = (fill: number) => Buffer.alloc(PART, fill);
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

/** A gate the test opens; the upstream handler waits on it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Sends two parts, waits for the gate, then `finish` decides how the body ends. */
function heldBody(
  path: string,
  headers: Record<string, string>,
  finish: (response: ServerResponse) => void,
) {
  const held = gate();
  upstream.handle(path, (_request, response) => {
    response.writeHead(200, headers);
    response.write(partOf(1));
    response.write(partOf(2));
    held.opened.then(() => finish(response));
  });
  return held;
}

const whole = Buffer.concat([partOf(1), partOf(2), partOf(3)]);
const endWithThirdPart = (response: ServerResponse) => response.end(partOf(3));

async function readAll(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

async function firstBytes(response: Response) {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  return { reader, received: value!.length };
}

async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, already: Uint8Array[]) {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(already);
    already.push(value);
  }
}

const cachedFiles = async () =>
  (await (await depot.request('/artifactory/api/storage/proxy?list&deep=1')).json()).files.map(
    (f: { uri: string }) => f.uri,
  );
const tempFiles = () => readdirSync(join(depot.config.home, 'filestore', '_tmp'));

/** Waits until no download runs on the server (a condition, not a clock). */
async function downloadsSettled() {
  while (depot.services.remote.downloadsInFlight().length > 0)
    await new Promise((resolve) => setImmediate(resolve));
}

beforeAll(async () => {
  ({ depot, upstream } = await startProxyOfScriptedUpstream('/up/', {
    assumedOfflinePeriodSecs: 0,
  }));
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe('a cache miss streams while it caches', () => {
  it('gives the client its first bytes before the upstream has finished', async () => {
    const held = heldBody(
      '/up/slow.bin',
      { 'content-length': String(whole.length), 'x-checksum-sha1': sha1(whole) },
      endWithThirdPart,
    );
    const response = await depot.request('/artifactory/proxy/slow.bin');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(whole.length));
    expect(response.headers.get('x-checksum-sha1')).toBe(sha1(whole));
    const { reader, received } = await firstBytes(response);
    expect(received).toBeGreaterThan(0); // the upstream is still held at this point
    held.open();
    const chunks: Uint8Array[] = [];
    const body = await readRest(reader, chunks);
    expect(received + body.length).toBe(whole.length);
    await downloadsSettled();
    expect(await cachedFiles()).toEqual(['/slow.bin']);
    const cached = await readAll(await depot.request('/artifactory/proxy/slow.bin'));
    expect(cached.equals(whole)).toBe(true);
    expect(upstream.hits('/up/slow.bin')).toBe(1);
  });

  it('fetches once for concurrent requests of one path', async () => {
    const held = heldBody(
      '/up/shared.bin',
      { 'content-length': String(whole.length) },
      endWithThirdPart,
    );
    const leader = await depot.request('/artifactory/proxy/shared.bin');
    const { reader, received } = await firstBytes(leader);
    const follower = depot.request('/artifactory/proxy/shared.bin');
    while (depot.services.remote.downloadsInFlight()[0]?.waiters !== 1)
      await new Promise((resolve) => setImmediate(resolve));
    held.open();
    const leaderBody = await readRest(reader, []);
    expect(received + leaderBody.length).toBe(whole.length);
    expect((await readAll(await follower)).equals(whole)).toBe(true);
    expect(upstream.hits('/up/shared.bin')).toBe(1);
  });

  it('finishes caching a healthy download when the client goes away', async () => {
    const held = heldBody(
      '/up/abandoned.bin',
      { 'content-length': String(whole.length) },
      endWithThirdPart,
    );
    const abort = new AbortController();
    const response = await depot.request('/artifactory/proxy/abandoned.bin', {
      signal: abort.signal,
    });
    await firstBytes(response);
    abort.abort();
    held.open();
    await downloadsSettled();
    const cached = await readAll(await depot.request('/artifactory/proxy/abandoned.bin'));
    expect(cached.equals(whole)).toBe(true);
    expect(upstream.hits('/up/abandoned.bin')).toBe(1);
  });
});

describe('a bad upstream body caches nothing', () => {
  it('cut short of its Content-Length after streaming began: the client sees it break', async () => {
    const held = heldBody('/up/cut.bin', { 'content-length': String(whole.length) }, (r) =>
      r.destroy(),
    );
    const response = await depot.request('/artifactory/proxy/cut.bin');
    expect(response.status).toBe(200);
    const { reader } = await firstBytes(response);
    held.open();
    await expect(readRest(reader, [])).rejects.toThrow();
    await downloadsSettled();
    expect(await cachedFiles()).not.toContain('/cut.bin');
    expect(tempFiles()).toEqual([]);
  });

  it('cut short before a byte went out: a clean 502', async () => {
    upstream.handle('/up/short.bin', (_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('only a little');
      setImmediate(() => response.destroy());
    });
    const response = await depot.request('/artifactory/proxy/short.bin');
    expect(response.status).toBe(502);
    expect((await response.json()).errors[0].message).toMatch(
      /^Remote repository 'proxy': the download from the upstream broke off/,
    );
    expect(await cachedFiles()).not.toContain('/short.bin');
  });

  it('whose checksum header does not match: a clean 502 when small', async () => {
    upstream.handle('/up/lying.txt', (_request, response) => {
      response.writeHead(200, { 'x-checksum-sha1': sha1(Buffer.from('something else')) });
      response.end('the real content');
    });
    const response = await depot.request('/artifactory/proxy/lying.txt');
    expect(response.status).toBe(502);
    expect((await response.json()).errors[0].message).toMatch(
      /^Remote repository 'proxy': the upstream's checksum header does not match the content of 'lying\.txt'; nothing was cached/,
    );
    expect(await cachedFiles()).not.toContain('/lying.txt');
  });

  it('whose checksum header does not match: the stream breaks before its last byte', async () => {
    const held = heldBody(
      '/up/lying.bin',
      {
        'content-length': String(whole.length),
        'x-checksum-sha256': createHash('sha256').update('not this').digest('hex'),
      },
      endWithThirdPart,
    );
    const response = await depot.request('/artifactory/proxy/lying.bin');
    expect(response.status).toBe(200);
    const { reader, received } = await firstBytes(response);
    held.open();
    const chunks: Uint8Array[] = [];
    await expect(readRest(reader, chunks)).rejects.toThrow();
    expect(received + Buffer.concat(chunks).length).toBeLessThan(whole.length);
    await downloadsSettled();
    expect(await cachedFiles()).not.toContain('/lying.bin');
    expect(tempFiles()).toEqual([]);
  });
});

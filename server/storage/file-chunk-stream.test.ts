import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CHUNK_BYTES, FileChunkStream } from './file-chunk-stream.ts';

const dir = mkdtempSync(join(tmpdir(), 'depot-chunk-stream-'));
const SIZE = 12 * FILE_CHUNK_BYTES + 12345;
const content = randomBytes(SIZE);
const path = join(dir, 'blob');
writeFileSync(path, content);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let server: Server;
let base: string;
/** What each request's stream was, to look at after the answer. */
const streams: FileChunkStream[] = [];
/** How the server sends the file: straight into the response, or through a pass-through. */
let send: (stream: Readable, response: ServerResponse) => void;

beforeAll(async () => {
  server = createServer((request, response) => {
    const range = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '');
    const stream = new FileChunkStream(
      path,
      range ? { start: Number(range[1]), end: Number(range[2]) } : undefined,
    );
    streams.push(stream);
    send(stream, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
  rmSync(dir, { recursive: true, force: true });
});

/** The body of a GET, read slowly (a pause every 256 KiB) so that writes back up. */
function slowGet(headers: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(`${base}/`, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      let sincePause = 0;
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        sincePause += chunk.length;
        if (sincePause < 256 * 1024) return;
        sincePause = 0;
        answer.pause();
        setTimeout(() => answer.resume(), 2);
      });
      answer.on('end', () => resolve(Buffer.concat(chunks)));
      answer.on('error', reject);
    }).on('error', reject);
  });
}

describe('a file streamed in chunks', () => {
  it('into a response reuses its buffers, and every byte arrives as stored', async () => {
    send = (stream, response) => stream.pipe(response);
    const received = await slowGet();
    expect(received.length).toBe(SIZE);
    expect(sha256(received)).toBe(sha256(content));
    // 13 chunks through a handful of buffers: reused once the kernel had their bytes.
    const stream = streams.at(-1)!;
    expect(stream.buffersAllocated).toBeGreaterThan(0);
    expect(stream.buffersAllocated).toBeLessThan(6);
  });

  it('sends a range, end included', async () => {
    send = (stream, response) => stream.pipe(response);
    const start = FILE_CHUNK_BYTES - 7;
    const end = 3 * FILE_CHUNK_BYTES + 100;
    const received = await slowGet({ range: `bytes=${start}-${end}` });
    expect(sha256(received)).toBe(sha256(content.subarray(start, end + 1)));
  });

  it('through a pass-through, which may keep chunks, gives every chunk a buffer of its own', async () => {
    send = (stream, response) => stream.pipe(new PassThrough()).pipe(response);
    const received = await slowGet();
    expect(sha256(received)).toBe(sha256(content));
    expect(streams.at(-1)!.buffersAllocated).toBe(13);
  });

  it('read by its consumer, keeps every chunk intact after later ones are read', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of new FileChunkStream(path)) {
      chunks.push(chunk as Buffer);
      await sleep(0);
    }
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(content));
  });

  it('reads a small file into a buffer of its size', async () => {
    const small = join(dir, 'small');
    writeFileSync(small, 'eleven char');
    const chunks: Buffer[] = [];
    for await (const chunk of new FileChunkStream(small)) chunks.push(chunk as Buffer);
    expect(chunks.map((chunk) => chunk.toString())).toEqual(['eleven char']);
    expect(chunks[0]!.buffer.byteLength).toBe(11);
  });

  it('fails with the file system error for a missing file', async () => {
    const missing = new FileChunkStream(join(dir, 'missing'));
    await expect(missing.toArray()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('closes its file when destroyed mid-download, as Fastify does when the client goes away', async () => {
    send = (stream, response) => {
      stream.pipe(response);
      response.on('close', () => stream.destroy());
    };
    await new Promise<void>((done) => {
      const request = get(`${base}/`, (answer) => {
        answer.once('data', () => {
          request.destroy();
          done();
        });
      });
      request.on('error', () => undefined);
    });
    const stream = streams.at(-1)!;
    const deadline = Date.now() + 5000;
    while (!stream.closed && Date.now() < deadline) await sleep(10);
    expect(stream.closed).toBe(true);
  });
});

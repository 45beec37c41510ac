import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_BODY_MESSAGE } from '../server/http/slow-bodies.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { adminAuth } from './helpers/test-app.ts';

/**
 * A client may not hold a request open by sending it slowly: headers must arrive within
 * their timeout, a body at the minimum rate over each window (docs/security.md, "Slow
 * requests"). Short limits here so the test runs fast; real HTTP on loopback, from raw
 * sockets that send exactly what the test says when it says.
 */
const LIMITS = { minBytesPerSecond: 1024, windowSeconds: 1 };
let depot: HttpDepot;
let port: number;
const sockets = new Set<Socket>();

beforeAll(async () => {
  depot = await startHttpDepot({
    DEPOT_REQUEST_HEADERS_TIMEOUT_SECONDS: '1',
    DEPOT_REQUEST_BODY_MIN_BYTES_PER_SECOND: String(LIMITS.minBytesPerSecond),
    DEPOT_REQUEST_BODY_RATE_WINDOW_SECONDS: String(LIMITS.windowSeconds),
  });
  port = Number(new URL(depot.base).port);
  await depot.services.repositories.create({ key: 'up', rclass: 'local', packageType: 'generic' });
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await depot?.close();
});

/** A raw connection: what the server sent back, and when it closed the connection. */
async function open() {
  const socket = connect(port, '127.0.0.1');
  sockets.add(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined); // a reset after the answer is expected
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed };
}

/** Sends `piece` every `everyMs` until the server closes the connection or `count` are sent. */
function trickle(socket: Socket, piece: string | Buffer, everyMs: number, count = Infinity) {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent >= count) return clearInterval(timer);
    socket.write(piece);
    sent += 1;
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const putHead = (path: string, length: number) =>
  `PUT /artifactory/up/${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${adminAuth().authorization}\r\nContent-Length: ${length}\r\n\r\n`;

const logLines = () =>
  readFileSync(join(depot.config.home, 'logs', 'depot-service.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } });

/** Polls until `done` holds or about ten seconds have passed (pino writes asynchronously). */
async function eventually(done: () => boolean) {
  for (let attempt = 0; attempt < 200 && !done(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The log lines after the first `from`, once `count` of them say `msg`. */
async function logOnceItHas(from: number, msg: string, count: number) {
  const after = () => logLines().slice(from);
  await eventually(() => after().filter((line) => line.msg === msg).length >= count);
  return after();
}

const tempFiles = () => {
  const dir = join(depot.config.filestoreDir, '_tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const stored = async (path: string) => (await depot.request(`/artifactory/up/${path}`)).status;

describe('a request body that trickles in', () => {
  it('is answered 408 and its connection closed; nothing is stored', async () => {
    const { socket, closed } = await open();
    socket.write(putHead('trickled.bin', 1000));
    trickle(socket, 'x', 200);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('Connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      errors: [{ status: 408, message: SLOW_BODY_MESSAGE(LIMITS) }],
    });
    expect(await stored('trickled.bin')).toBe(404);
  });

  it('is ended for twenty at once, each logged once at info, none as an error', async () => {
    const before = logLines().length;
    const uploads = await Promise.all(Array.from({ length: 20 }, () => open()));
    uploads.forEach(({ socket }, i) => {
      socket.write(putHead(`many-${i}.bin`, 1000));
      trickle(socket, 'x', 300);
    });
    const answers = await Promise.all(uploads.map(({ closed }) => closed));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const message = 'request body arrived too slowly; answered 408 and closed the connection';
    // Each upload's handler has failed and cleaned up once its temp file is gone.
    await eventually(() => tempFiles().length === 0);
    expect(tempFiles()).toEqual([]);
    const lines = await logOnceItHas(before, message, 20);
    expect(lines.filter((line) => line.msg === message)).toHaveLength(20);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines.filter((line) => line.msg.includes('mid-request'))).toEqual([]);
    for (let i = 0; i < 20; i++) expect(await stored(`many-${i}.bin`)).toBe(404);
  });

  it('does not end an upload that is slow but steady, over several windows', async () => {
    const { socket, closed } = await open();
    const chunk = Buffer.alloc(2048, 'a');
    const pieces = 8; // 2 KiB every 400 ms: 5 KiB/s for over 3 s
    socket.write(putHead('steady.bin', chunk.length * pieces));
    trickle(socket, chunk, 400, pieces);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (data: Buffer) => {
        text += data.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      void closed.then(resolve);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    socket.destroy();
    const content = await depot.request('/artifactory/up/steady.bin');
    expect((await content.arrayBuffer()).byteLength).toBe(chunk.length * pieces);
  });
});

describe('a client that goes away mid-upload', () => {
  it('is one line at info, without a stack, and leaves nothing behind', async () => {
    const before = logLines().length;
    const { socket, closed } = await open();
    socket.write(`${putHead('abandoned.bin', 100000)}${'y'.repeat(5000)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    await closed;
    const message = 'the client closed the connection mid-request';
    await eventually(() => tempFiles().length === 0);
    const lines = await logOnceItHas(before, message, 1);
    expect(lines.filter((line) => line.msg === message)).toHaveLength(1);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines.filter((line) => line.err?.stack)).toEqual([]);
    expect(await stored('abandoned.bin')).toBe(404);
  });
});

describe('headers that trickle in, or never come', () => {
  it('are answered 408 once the headers timeout passes', async () => {
    const slow = await open();
    slow.socket.write('PUT /artifactory/up/h.bin HTTP/1.1\r\n');
    trickle(slow.socket, 'X-Filler: 1\r\n', 200);
    const silent = await open();
    for (const answer of await Promise.all([slow.closed, silent.closed]))
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});

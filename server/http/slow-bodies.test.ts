import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createBodyRateGuard } from './slow-bodies.ts';

/**
 * The guard on a real HTTP server on loopback whose handler is the test's own, so that the
 * server, not the client, can be the slow side.
 */
// Half-second windows: the test waits three of them, and what it checks (paused time is not
// counted) does not depend on the window's length.
const LIMITS = { minBytesPerSecond: 1024, windowSeconds: 0.5 };
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('the body rate guard', () => {
  it('does not count time in which the server is not reading', async () => {
    const guard = createBodyRateGuard(LIMITS, pino({ level: 'silent' }));
    server = createServer((request, response) => {
      guard.watch(request, response);
      // Busy elsewhere for three windows: the client's bytes wait in paused buffers.
      setTimeout(
        () => {
          let size = 0;
          request.on('data', (chunk: Buffer) => (size += chunk.length));
          request.on('end', () => response.end(String(size)));
        },
        3 * LIMITS.windowSeconds * 1000,
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const body = Buffer.alloc(4 * 1024 * 1024, 'z');
    socket.write(`PUT / HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.endsWith(String(body.length))) resolve(text);
      });
      socket.on('close', () => resolve(text));
    });
    socket.destroy();
    guard.stop();
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer.endsWith(`\r\n\r\n${body.length}`)).toBe(true);
  });
});

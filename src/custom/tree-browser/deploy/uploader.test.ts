import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { putFile } from './uploader';
import { DEPLOY_LABELS } from './messages';

/**
 * A loopback server answering each PUT as its path says: `/bare/<status>` with no body (a proxy
 * in front of Depot, say), `/errors/<status>` with Artifactory's error shape. It allows the
 * test page's origin (jsdom's XMLHttpRequest keeps the browser's CORS rules).
 */
function answer(request: IncomingMessage, response: ServerResponse) {
  response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
  response.setHeader('Access-Control-Allow-Credentials', 'true');
  response.setHeader('Access-Control-Allow-Methods', 'PUT');
  response.setHeader('Access-Control-Allow-Headers', '*, x-checksum-sha1');
  if (request.method === 'OPTIONS') return void response.writeHead(204).end();
  request.resume();
  request.on('end', () => {
    const [, kind, status] = (request.url ?? '').split('/');
    if (kind === 'errors') {
      response.writeHead(Number(status), { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ status: Number(status), message: 'Quota hit' }] }));
    } else {
      response.writeHead(Number(status)).end();
    }
  });
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const upload = (path: string) =>
  putFile(
    `${base}${path}`,
    new Blob(['hello']),
    { 'X-Checksum-Sha1': 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d' },
    () => undefined,
    new AbortController().signal,
  );

describe('putFile, when the server refuses an upload', () => {
  it('says so in plain words naming the status when the answer has no message', async () => {
    await expect(upload('/bare/502')).rejects.toThrow(
      'The upload failed (the server answered 502)',
    );
    expect(DEPLOY_LABELS.uploadFailed(413)).toBe('The upload failed (the server answered 413)');
    await expect(upload('/bare/500')).rejects.not.toThrow(/Internal Server Error/);
  });

  it("shows the server's own message when it gives one", async () => {
    await expect(upload('/errors/413')).rejects.toThrow('Quota hit');
  });
});

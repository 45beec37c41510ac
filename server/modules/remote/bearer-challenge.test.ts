import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBearerTokens, parseBearerChallenge } from './bearer-challenge.ts';
import { UpstreamError } from './upstream-error.ts';

describe('parseBearerChallenge', () => {
  it('reads realm, service and scope, quoted or bare, and nothing of another scheme', () => {
    expect(
      parseBearerChallenge(
        'Bearer realm="https://auth.example/token",service=registry,scope="repository:a:pull"',
      ),
    ).toEqual({
      realm: 'https://auth.example/token',
      service: 'registry',
      scope: 'repository:a:pull',
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge('Bearer service="x"')).toBeUndefined();
  });
});

describe('an upstream whose challenge names no address', () => {
  let upstream: Server;
  let base = '';
  beforeAll(async () => {
    upstream = createServer((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer realm="not a url",service="r"' });
      response.end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it("is the upstream's error, not a crash", async () => {
    const tokens = createBearerTokens();
    const asked = tokens.fetch(1, new URL(`${base}/v2/a/manifests/1`), {
      allowList: ['127.0.0.1'],
      timeoutMs: 5000,
    });
    await expect(asked).rejects.toBeInstanceOf(UpstreamError);
    await expect(asked).rejects.toThrow('The upstream named a token endpoint that is not a URL');
  });
});

import { existsSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.ts';

/**
 * The console loads only its own scripts; styles may be inline because AG Grid positions
 * rows and columns with style attributes. WebAssembly may be compiled (not eval'd script):
 * the deploy dialog hashes files with a WASM SHA-256. No framing (clickjacking), no plugins.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * Serves the built console under /ui/. A path that is not a file gets index.html, so deep
 * links work with history routing; hashed assets are cached for good, index.html never.
 */
export async function uiRoutes(app: FastifyInstance, { uiDir }: { uiDir: string }) {
  await app.register(fastifyStatic, { root: uiDir, serve: false });
  const indexFile = join(uiDir, 'index.html');
  const publicRoute = { config: { permission: 'public' as const } };

  app.get('/', publicRoute, async (_request, reply) => reply.redirect('/ui/'));

  const serveConsole = async (
    request: FastifyRequest<{ Params: { '*'?: string } }>,
    reply: FastifyReply,
  ) => {
    const path = request.params['*'] ?? '';
    if (path.startsWith('api/')) throw new NotFound(`The path /ui/${path} could not be found.`);
    if (!existsSync(indexFile)) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The console is not built: run `npm run build`.');
    }
    const relative = normalize(path).replace(/^(\.\.(\/|$))+/, '');
    const file = join(uiDir, relative);
    // Hidden files (the build manifest under .vite/) are not part of the console.
    const hidden = relative.split('/').some((segment) => segment.startsWith('.'));
    const isAsset = !hidden && relative !== 'index.html' && file.startsWith(uiDir);
    if (relative && isAsset && existsSync(file) && statSync(file).isFile()) {
      const immutable = relative.startsWith('assets/');
      return reply
        .header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .sendFile(relative, { cacheControl: false });
    }
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'same-origin')
      .sendFile('index.html', { cacheControl: false });
  };
  // With ignoreTrailingSlash, '/ui' also answers '/ui/'.
  app.get('/ui', publicRoute, serveConsole);
  app.get('/ui/*', publicRoute, serveConsole);
}

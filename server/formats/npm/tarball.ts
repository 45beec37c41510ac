import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequest } from '../../errors.ts';
import { deeperThan, JSON_MAX_DEPTH } from '../../http/json-nesting.ts';

/** What a package tarball says about itself: its package.json and its readme. */
export interface TarballContents {
  manifest: Record<string, unknown>;
  readme?: { filename: string; text: string };
}

// package.json of a real package is a few KiB; a readme rarely passes a few hundred.
const MANIFEST_LIMIT = 1024 * 1024;
const README_LIMIT = 1024 * 1024;
const README = /^readme(\.(md|markdown|txt|rst))?$/i;

/** `package/package.json` → ['package', 'package.json']: npm packs everything one folder deep. */
function topLevelName(path: string): string | undefined {
  const parts = path.replace(/^\.\//, '').split('/');
  return parts.length === 2 ? parts[1] : undefined;
}

async function readEntry(stream: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size <= limit ? Buffer.concat(chunks) : undefined;
}

/**
 * Reads package.json and the readme out of an npm tarball (a gzipped tar), streaming: the
 * rest of the archive is skipped, never held in memory. A tarball without a readable
 * package.json is refused with a message naming what is wrong.
 */
export async function readPackageTarball(source: Buffer | Readable): Promise<TarballContents> {
  const extract = tar.extract();
  let manifestText: Buffer | undefined;
  let readme: TarballContents['readme'];
  extract.on('entry', (header, stream, next) => {
    const name = header.type === 'file' ? topLevelName(header.name) : undefined;
    const wanted =
      name === 'package.json' ? MANIFEST_LIMIT : name && README.test(name) ? README_LIMIT : 0;
    if (!wanted) {
      stream.on('end', next).resume();
      return;
    }
    readEntry(stream, wanted).then((content) => {
      if (name === 'package.json') manifestText ??= content ?? Buffer.alloc(0);
      else if (content && !readme) readme = { filename: name!, text: content.toString('utf8') };
      next();
    }, next);
  });
  try {
    const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
    await pipeline(input, createGunzip(), extract);
  } catch (error) {
    throw new BadRequest(`The package tarball could not be read: ${(error as Error).message}`);
  }
  if (!manifestText) throw new BadRequest('The package tarball has no package.json');
  const text = manifestText.toString('utf8');
  if (deeperThan(text, JSON_MAX_DEPTH) !== undefined)
    throw new BadRequest(
      `The package.json inside the tarball nests deeper than ${JSON_MAX_DEPTH} levels (the limit)`,
    );
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new BadRequest('The package.json inside the tarball is not valid JSON');
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest))
    throw new BadRequest('The package.json inside the tarball is not a JSON object');
  return { manifest: manifest as Record<string, unknown>, readme };
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { BadRequest } from '../../errors.ts';
import { BUCKET_FILE_LIMIT, LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/** The add form as a browser or curl sends it: `name`, `file` (and `key`, optionally). */
export interface BucketUpload {
  fields: Record<string, string>;
  file: Buffer;
}

/**
 * Reads a multipart add form. The file must be named `*.json` and stay under 13 MB: a
 * larger one is refused when the limit is reached, without reading the rest into memory.
 */
export function readBucketUpload(
  body: Readable,
  headers: IncomingHttpHeaders,
): Promise<BucketUpload> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let problem: BadRequest | undefined;
    let sawFile = false;
    const parser = new Busboy({
      headers: headers as never,
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, fileSize: BUCKET_FILE_LIMIT - 1 },
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, filename) => {
      if (name !== 'file' || sawFile) return stream.resume();
      sawFile = true;
      if (!/\.json$/i.test(filename ?? '')) problem ??= new BadRequest(M.notJsonFile, 'file');
      stream.on('limit', () => (problem ??= new BadRequest(M.fileTooLarge, 'file')));
      stream.on('data', (chunk: Buffer) => {
        if (!problem) chunks.push(chunk);
      });
    });
    parser.on('error', (error: unknown) =>
      reject(new BadRequest(`The add form could not be read: ${(error as Error).message}`)),
    );
    parser.on('finish', () => {
      if (problem) return reject(problem);
      if (!sawFile) return reject(new BadRequest(M.mandatory, 'file'));
      resolve({ fields, file: Buffer.concat(chunks) });
    });
    body.pipe(parser);
  });
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { BadRequest } from '../../errors.ts';
import type { Checksums, StagedBlob } from '../../storage/filestore.ts';
import { PYPI_MESSAGES as M } from './messages.ts';

export interface Upload {
  /** Form fields; a field sent several times (classifiers) keeps every value. */
  fields: Map<string, string[]>;
  file?: { filename: string; staged: StagedBlob };
}

// Metadata fields are short; a long description (the readme) is the largest of them.
const FIELD_LIMIT = 4 * 1024 * 1024;

/**
 * Reads twine's upload form: the metadata fields, then the distribution file in `content`,
 * which is streamed into the filestore (verified against the md5 and sha256 digests the form
 * sent before it), never held in memory. A second file part is refused.
 */
export function readUpload(
  body: Readable,
  headers: IncomingHttpHeaders,
  stage: (content: Readable, expected: Partial<Checksums>) => Promise<StagedBlob>,
): Promise<Upload> {
  if (!String(headers['content-type'] ?? '').startsWith('multipart/form-data'))
    return Promise.reject(new BadRequest(M.notMultipart));
  const fields = new Map<string, string[]>();
  const first = (name: string) => fields.get(name)?.[0];
  let staging: Promise<Upload['file']> | undefined;
  return new Promise<Upload>((resolve, reject) => {
    const parser = new Busboy({
      headers: headers as never,
      limits: { fieldSize: FIELD_LIMIT, files: 1 },
    });
    parser.on('field', (name, value) => fields.set(name, [...(fields.get(name) ?? []), value]));
    parser.on('file', (name, stream, filename) => {
      if (name !== 'content' || staging) {
        stream.resume();
        return;
      }
      const expected = { sha256: first('sha256_digest'), md5: first('md5_digest') };
      staging = stage(stream, expected).then((staged) => ({ filename, staged }));
      staging.catch(() => stream.resume());
    });
    parser.on('error', (error: unknown) =>
      reject(new BadRequest(`The upload form could not be read: ${(error as Error).message}`)),
    );
    parser.on('finish', () => {
      Promise.resolve(staging).then((file) => resolve({ fields, file }), reject);
    });
    body.pipe(parser);
  });
}

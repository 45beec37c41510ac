// The thread that writes and hashes blob uploads' bytes (upload-writer.ts): the event loop
// hands it batches and goes back to reading sockets while it writes and hashes them.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { BATCH_BYTES, type UploadThreadReply, type UploadThreadRequest } from './upload-writer.ts';

/** Uploads whose hashes are kept at once; more are hashed from their file when they end. */
const MAX_RUNNING_HASHES = 10_000;

interface Upload {
  /** The file, open for appending while an append is under way. */
  fd?: number;
  /** The memory the main thread fills with batches, while an append is under way. */
  slots?: SharedArrayBuffer;
  /** Bytes of the file the hashes cover (when there are hashes). */
  size: number;
  hashes?: { sha256: Hash; sha1: Hash };
}

const port = parentPort!;
const uploads = new Map<string, Upload>();
const newHashes = () => ({ sha256: createHash('sha256'), sha1: createHash('sha1') });

/**
 * Begins an append to a file of `size` bytes: hashes go on from where they were when they
 * cover exactly those bytes, start anew for an empty file, else there are none (another node
 * or process wrote some of it, or a refused chunk was cut off).
 */
function open(id: string, path: string, size: number, slots: SharedArrayBuffer) {
  const known = uploads.get(id);
  if (known?.fd !== undefined) closeSync(known.fd);
  let hashes = known?.hashes && known.size === size ? known.hashes : undefined;
  if (size === 0 && uploads.size < MAX_RUNNING_HASHES) hashes = newHashes();
  const upload: Upload = { fd: openSync(path, 'a'), slots, size, hashes };
  uploads.set(id, upload);
  return Boolean(hashes);
}

/** Writes a batch at the file's end, then hashes it; a failed write ends the hashes. */
function write(id: string, slot: number, length: number) {
  const upload = uploads.get(id);
  if (upload?.fd === undefined || !upload.slots)
    throw new Error(`upload ${id} is not open for writing`);
  const bytes = Buffer.from(upload.slots, slot * BATCH_BYTES, length);
  try {
    for (let done = 0; done < bytes.length;)
      done += writeSync(upload.fd, bytes, done, bytes.length - done);
  } catch (error) {
    upload.hashes = undefined;
    throw error;
  }
  upload.hashes?.sha256.update(bytes);
  upload.hashes?.sha1.update(bytes);
  upload.size += bytes.length;
}

function close(id: string) {
  const upload = uploads.get(id);
  if (upload?.fd === undefined) return;
  closeSync(upload.fd);
  upload.fd = undefined;
  upload.slots = undefined;
  if (!upload.hashes) uploads.delete(id);
}

/** The hashes when they cover exactly `size` bytes; asked once, at the end. */
function digests(id: string, size: number) {
  const upload = uploads.get(id);
  uploads.delete(id);
  if (upload?.fd !== undefined) closeSync(upload.fd);
  if (!upload?.hashes || upload.size !== size) return undefined;
  return {
    size,
    sha256: upload.hashes.sha256.digest('hex'),
    sha1: upload.hashes.sha1.digest('hex'),
  };
}

port.on('message', (request: UploadThreadRequest) => {
  const { seq } = request;
  try {
    switch (request.op) {
      case 'open':
        return port.postMessage({
          seq,
          hashed: open(request.id, request.path, request.size, request.slots),
        });
      case 'write':
        write(request.id, request.slot, request.length);
        return port.postMessage({ seq });
      case 'close':
        close(request.id);
        return port.postMessage({ seq });
      case 'digests':
        return port.postMessage({ seq, digests: digests(request.id, request.size) });
      case 'forget':
        digests(request.id, -1);
        return port.postMessage({ seq });
    }
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    port.postMessage({ seq, error: { message, code } } satisfies UploadThreadReply);
  }
});

import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { BadRequest, DepotError } from '../../errors.ts';
import { ARCHIVE_MESSAGES } from './messages.ts';

export type DeployArchiveType = 'zip' | 'tar' | 'tgz';

/**
 * How far an entry has grown from what was read of the archive: the compressed bytes read so
 * far, of this entry (zip, each entry compressed on its own) or of the whole archive (tar.gz).
 */
export interface Compression {
  scope: 'entry' | 'archive';
  compressedRead(): number;
}

/** One entry as the archive names it, before any check. */
export interface RawEntry {
  name: string;
  kind: 'file' | 'directory' | string;
  /** The size the archive's headers give (not checked until the content is read). */
  size: number;
  /** Absent for an archive that is not compressed (tar). */
  compression?: Compression;
  /** What the archive records of the content (zip), checked once it has been read. */
  recorded?: { crc32: number; size: number };
  /** Files only; consumed (or destroyed) by the handler before the next entry comes. */
  open(): Promise<Readable>;
}

/** Handles one entry; answering 'stop' ends the reading there (the rest is never read). */
export type EntryHandler = (entry: RawEntry) => Promise<void | 'stop'>;

/** The archive type a deployed file name announces, or undefined when it is none. */
export function deployArchiveType(fileName: string): DeployArchiveType | undefined {
  const name = fileName.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar')) return 'tar';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tgz';
  return undefined;
}

/**
 * Hands every entry of an archive on disk to `handle`, one at a time, in archive order, until
 * the handler answers 'stop'. The archive is read as a stream (tar) or through its central
 * directory (zip); no entry is ever held whole in memory. A damaged archive is a 400 with
 * `corrupt`'s message; the handler's own errors pass through.
 */
export async function readArchive(
  file: string,
  type: DeployArchiveType,
  handle: EntryHandler,
  corrupt: (detail: string) => string = ARCHIVE_MESSAGES.corrupt,
): Promise<void> {
  try {
    if (type === 'zip') await readZip(file, handle);
    else await readTar(file, type === 'tgz', handle);
  } catch (error) {
    if (error instanceof DepotError) throw error;
    throw new BadRequest(corrupt((error as Error).message));
  }
}

async function readZip(file: string, handle: EntryHandler): Promise<void> {
  // decodeStrings off: names are decoded here without yauzl's own checks and its quiet
  // turning of backslashes into slashes, so that entryPath judges the name as written.
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, autoClose: false },
      (error, opened) => (error ? reject(error) : resolve(opened)),
    ),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          entry.fileNameRaw,
          entry.extraFields,
          true,
        );
        let compressedRead = 0;
        handle({
          name,
          kind: name.endsWith('/') ? 'directory' : 'file',
          size: entry.uncompressedSize,
          compression: { scope: 'entry', compressedRead: () => compressedRead },
          recorded: { crc32: entry.crc32, size: entry.uncompressedSize },
          open: () =>
            openZipEntry(zip, entry, (bytes) => {
              compressedRead += bytes;
            }),
        }).then((next) => (next === 'stop' ? resolve() : zip.readEntry()), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/**
 * An entry's content, inflated here rather than by yauzl so that the compressed bytes read
 * can be counted as they go: the ratio is judged while inflating, not from the header.
 */
function openZipEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  countCompressed: (bytes: number) => void,
): Promise<Readable> {
  const method = entry.compressionMethod;
  if (method !== 0 && method !== 8) {
    return Promise.reject(
      new Error(`entry '${entry.fileNameRaw}' uses compression method ${method}`),
    );
  }
  return new Promise((resolve, reject) =>
    // yauzl takes `decompress` only for compressed entries; stored ones are read as they are.
    zip.openReadStream(entry, method === 8 ? { decompress: false } : {}, (error, raw) => {
      if (error) return reject(error);
      const counted = raw.pipe(counting(countCompressed));
      raw.once('error', (failure) => counted.destroy(failure));
      // The reader keeps the archive open while an entry's stream lives: end it with ours.
      counted.once('close', () => raw.destroy());
      if (method === 0) return resolve(counted);
      const inflated = counted.pipe(createInflateRaw());
      counted.once('error', (failure) => inflated.destroy(failure));
      inflated.once('close', () => counted.destroy());
      resolve(inflated);
    }),
  );
}

async function readTar(file: string, gzipped: boolean, handle: EntryHandler): Promise<void> {
  const extract = tar.extract();
  const raw = createReadStream(file);
  let compressedRead = 0;
  const counter = counting((bytes) => {
    compressedRead += bytes;
  });
  const source: Readable = gzipped ? raw.pipe(counter).pipe(createGunzip()) : raw;
  const failed = new Promise<never>((_, reject) => {
    raw.once('error', reject);
    source.once('error', reject);
  });
  failed.catch(() => undefined);
  source.pipe(extract as unknown as NodeJS.WritableStream);
  try {
    const entries = extract[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([entries.next(), failed]);
      if (next.done) break;
      const entry = next.value;
      const header = entry.header;
      const answer = await Promise.race([
        handle({
          name: header.name,
          kind: header.type ?? 'file',
          size: header.size ?? 0,
          compression: gzipped
            ? { scope: 'archive', compressedRead: () => compressedRead }
            : undefined,
          // A Node stream of tar-stream's (streamx) entry.
          open: async () => Readable.from(entry, { objectMode: false }),
        }),
        failed,
      ]);
      if (answer === 'stop') break;
      entry.resume(); // whatever the handler left unread (a folder's empty body)
    }
  } finally {
    raw.destroy();
    extract.destroy();
  }
}

/** A pass-through that reports how many bytes go through it. */
function counting(onBytes: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

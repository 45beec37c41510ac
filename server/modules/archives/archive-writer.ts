import { PassThrough, pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';

export const DOWNLOAD_ARCHIVE_TYPES = ['zip', 'tar', 'tar.gz', 'tgz'] as const;
export type DownloadArchiveType = (typeof DOWNLOAD_ARCHIVE_TYPES)[number];

export const ARCHIVE_CONTENT_TYPES: Record<DownloadArchiveType, string> = {
  zip: 'application/zip',
  tar: 'application/x-tar',
  'tar.gz': 'application/gzip',
  tgz: 'application/gzip',
};

/** One entry of an archive being written; its content is opened only when its turn comes. */
export interface ArchiveEntry {
  name: string;
  size: number;
  mtime: Date;
  open(): Promise<Readable>;
}

/** Deflating what is compressed already costs CPU and saves nothing. */
const COMPRESSED =
  /\.(zip|jar|war|ear|aar|apk|gz|tgz|bz2|xz|zst|7z|rar|whl|nupkg|rpm|deb|png|jpe?g|gif|webp|mp4|woff2?)$/i;

/**
 * Streams entries into an archive, one entry's content open at a time, so neither a file
 * nor the archive is ever held in memory and at most one file handle is open. Destroying
 * the returned stream (a client that went away) closes the entry being read.
 */
export function writeArchive(type: DownloadArchiveType, entries: ArchiveEntry[]): Readable {
  const reading = new Set<Readable>();
  let closed = false;
  const openTracked = async (entry: ArchiveEntry) => {
    const source = await entry.open();
    // Opened just as the archive was abandoned: close it rather than leak its handle.
    if (closed) source.destroy();
    reading.add(source);
    source.once('close', () => reading.delete(source));
    return source;
  };
  const output =
    type === 'zip' ? zipStream(entries, openTracked) : tarStream(type, entries, openTracked);
  output.once('close', () => {
    closed = true;
    for (const source of reading) source.destroy();
  });
  return output;
}

type Opener = (entry: ArchiveEntry) => Promise<Readable>;

function zipStream(entries: ArchiveEntry[], open: Opener): Readable {
  const zip = new yazl.ZipFile();
  // yazl's stream is piped into one of ours: destroying ours (a client gone) never makes
  // yazl write into a destroyed stream.
  const output = new PassThrough();
  zip.on('error', (error: Error) => output.destroy(error));
  for (const entry of entries) {
    zip.addReadStreamLazy(
      entry.name,
      { mtime: entry.mtime, size: entry.size, compress: !COMPRESSED.test(entry.name) },
      (callback) => {
        open(entry).then(
          (source) => {
            source.once('error', (error) => output.destroy(error));
            callback(null, source);
          },
          (error: Error) => callback(error, undefined as unknown as Readable),
        );
      },
    );
  }
  zip.end();
  zip.outputStream.pipe(output);
  output.once('close', () => zip.outputStream.unpipe(output));
  return output;
}

function tarStream(type: DownloadArchiveType, entries: ArchiveEntry[], open: Opener): Readable {
  const pack = tar.pack();
  const output = type === 'tar' ? new PassThrough() : createGzip();
  // tar-stream's streams are streamx streams; Readable.from makes a Node stream of one, and
  // destroying it ends the iteration, which destroys the pack.
  pipeline(Readable.from(pack, { objectMode: false }), output, () => undefined);
  const aborted = new Promise<never>((_, reject) =>
    output.once('close', () => reject(new Error('archive stream closed'))),
  );
  aborted.catch(() => undefined);
  (async () => {
    for (const entry of entries) {
      const source = await Promise.race([open(entry), aborted]);
      await Promise.race([addTarEntry(pack, entry, source), aborted]);
    }
    pack.finalize();
  })().catch((error: Error) => pack.destroy(error));
  return output;
}

function addTarEntry(pack: tar.Pack, entry: ArchiveEntry, source: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = pack.entry(
      { name: entry.name, size: entry.size, mtime: entry.mtime, type: 'file', mode: 0o644 },
      (error) => (error ? reject(error) : resolve()),
    );
    source.once('error', reject);
    source.pipe(sink as unknown as NodeJS.WritableStream);
  });
}

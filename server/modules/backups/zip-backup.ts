import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { BadRequest } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { BACKUP_MESSAGES } from './messages.ts';
import { blobRows } from './metadata-lines.ts';

export const ZIP_SUFFIX = '.zip';

/** The entries a zip backup holds besides its blobs (`blobs/ab/<sha256>`, as in a directory). */
const MANIFEST = 'manifest.json';
const METADATA = 'metadata.jsonl';
const MASTER_KEY = 'security/master.key';

export interface ZipParts {
  /** The metadata dump, already written. */
  metadataFile: string;
  /** Off for a backup that excludes content: the metadata only. */
  includeBlobs: boolean;
  filestore: Filestore;
  manifest: () => object;
  masterKey?: Buffer;
  /** Called as each blob is written: blobs and bytes so far. */
  onBlob: (done: number, bytes: number) => void;
  stopping?: AbortSignal;
}

/**
 * Writes a backup as one zip: the metadata, each blob the metadata names (stored, not
 * deflated: binaries are mostly compressed already), the master key when asked, and the
 * manifest last. One blob is open at a time and streamed through: memory does not grow with
 * the binaries' size (the zip's central directory, one small record per entry, does grow
 * with their number, as in any zip).
 */
export async function writeZipBackup(parts: ZipParts, zipPath: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const failed = new Promise<never>((_, reject) =>
    zip.on('error', (error: Error) => {
      (zip.outputStream as Readable).destroy(error); // ends the pipeline and closes the file
      reject(error);
    }),
  );
  failed.catch(() => undefined);
  const written = pipeline(zip.outputStream, createWriteStream(zipPath, { flags: 'wx' }));
  zip.addFile(parts.metadataFile, METADATA, { compress: true });
  let done = 0;
  let bytes = 0;
  for await (const blob of parts.includeBlobs
    ? blobRows(parts.metadataFile, { written: true })
    : []) {
    const name = `blobs/${blob.sha256.slice(0, 2)}/${blob.sha256}`;
    zip.addReadStreamLazy(name, { size: blob.size, compress: false }, (callback) => {
      if (parts.stopping?.aborted)
        return callback(parts.stopping.reason as Error, undefined as never);
      const source = createReadStream(parts.filestore.pathOf(blob.sha256));
      source.once('error', (error) => zip.emit('error', error));
      source.once('end', () => parts.onBlob((done += 1), (bytes += blob.size)));
      callback(null, source);
    });
  }
  if (parts.masterKey)
    zip.addBuffer(Buffer.from(parts.masterKey.toString('hex')), MASTER_KEY, { mode: 0o100600 });
  zip.addBuffer(Buffer.from(`${JSON.stringify(parts.manifest(), null, 2)}\n`), MANIFEST);
  zip.end();
  await Promise.race([written, failed]);
}

/** A zip backup opened for a restore: its manifest and metadata extracted, its blobs read in place. */
export interface OpenedZipBackup {
  /** A temp directory holding `manifest.json` and `metadata.jsonl`. */
  dir: string;
  openBlob: (sha256: string) => Promise<Readable>;
  close: () => Promise<void>;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

/** Reads the central directory: every entry by name (a small record each). */
function entriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/**
 * Opens a zip backup for a restore: the manifest and metadata go to a temp directory under
 * `workDir` (the restore reads the metadata several times), the blobs are read from the zip
 * when their turn comes. A file that is not a zip is refused as a damaged backup.
 */
export async function openZipBackup(
  zipPath: string,
  workDir: string,
  shownPath: string,
): Promise<OpenedZipBackup> {
  let zip: yauzl.ZipFile;
  let entries: Map<string, yauzl.Entry>;
  try {
    zip = await openZip(zipPath);
    entries = await entriesOf(zip);
  } catch {
    throw new BadRequest(BACKUP_MESSAGES.unreadable(shownPath), 'importPath');
  }
  const dir = await mkdtemp(join(workDir, 'restore-'));
  const close = async () => {
    zip.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const name of [MANIFEST, METADATA]) {
      const entry = entries.get(name);
      if (!entry) continue; // a missing manifest is refused by readManifest, as for a directory
      await pipeline(await entryStream(zip, entry), createWriteStream(join(dir, name)));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    dir,
    close,
    async openBlob(sha256: string) {
      const entry = entries.get(`blobs/${sha256.slice(0, 2)}/${sha256}`);
      if (!entry) throw new Error(`blob ${sha256} is not in the backup`);
      // Through a PassThrough: yauzl's own stream of a stored entry never ends when read as
      // an async iterator (the filestore's staging reads it so); piped, it does.
      const out = new PassThrough();
      pipeline(await entryStream(zip, entry), out).catch(() => undefined);
      return out;
    },
  };
}

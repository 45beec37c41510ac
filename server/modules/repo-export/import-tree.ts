import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, opendir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Properties } from '../artifacts/properties.ts';
import {
  FILE_INFO_SUFFIX,
  FOLDER_PROPERTIES,
  METADATA_DIR,
  PROPERTIES_SUFFIX,
  UnreadableMetadata,
  parseFileInfoChecksums,
  parsePropertiesXml,
  type RecordedChecksums,
} from './metadata-xml.ts';

/** What an import finds in a folder: a file to deploy or a folder that may carry properties. */
export interface ImportEntry {
  kind: 'file' | 'folder';
  /** The path inside the repository, `/`-separated. */
  path: string;
  /** Where it is on disk. */
  diskPath: string;
}

const CHECKSUM_EXTENSIONS = ['.sha1', '.md5', '.sha256'] as const;

const exists = (path: string) =>
  lstat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );

/** Whether `name` is the checksum file of a file beside it (`x.jar.sha1` next to `x.jar`). */
async function isChecksumFile(dir: string, name: string) {
  const extension = CHECKSUM_EXTENSIONS.find((ext) => name.endsWith(ext));
  return Boolean(extension) && (await exists(join(dir, name.slice(0, -extension!.length))));
}

/**
 * The files and folders below `root`, depth first, read a directory at a time. Metadata
 * folders and the checksum files beside their files are not items. Symbolic links are never
 * followed (`skipped` gets them): an import reads only what lies inside the path it was given.
 */
export async function* importEntries(
  root: string,
  skipped: string[],
  below = '',
): AsyncGenerator<ImportEntry> {
  const dir = join(root, below);
  for await (const entry of await opendir(dir)) {
    const path = below ? `${below}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) skipped.push(path);
    else if (entry.isDirectory()) {
      if (entry.name === METADATA_DIR) continue;
      yield { kind: 'folder', path, diskPath: join(dir, entry.name) };
      yield* importEntries(root, skipped, path);
    } else if (entry.isFile() && !(await isChecksumFile(dir, entry.name)))
      yield { kind: 'file', path, diskPath: join(dir, entry.name) };
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Parses a metadata file; `UnreadableMetadata` names it relative to the import. */
function parsed<T>(shown: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnreadableMetadata) error.message = `${shown}: ${error.message}`;
    throw error;
  }
}

/** The properties recorded for an entry (its `.properties.xml`, or a folder's `properties.xml`). */
export async function recordedProperties(entry: ImportEntry): Promise<Properties> {
  const [parent, name] = splitPath(entry.diskPath);
  const file =
    entry.kind === 'folder'
      ? join(entry.diskPath, METADATA_DIR, FOLDER_PROPERTIES)
      : join(parent, METADATA_DIR, `${name}${PROPERTIES_SUFFIX}`);
  const xml = await readOptional(file);
  return xml === undefined ? {} : parsed(metadataName(entry, file), () => parsePropertiesXml(xml));
}

/** The checksums recorded for a file: its `artifactory-file.xml`, then `.sha1`/`.md5` beside it. */
export async function recordedChecksums(entry: ImportEntry): Promise<RecordedChecksums> {
  const [parent, name] = splitPath(entry.diskPath);
  const infoFile = join(parent, METADATA_DIR, `${name}${FILE_INFO_SUFFIX}`);
  const info = await readOptional(infoFile);
  const recorded =
    info === undefined
      ? {}
      : parsed(metadataName(entry, infoFile), () => parseFileInfoChecksums(info));
  for (const type of ['sha1', 'md5', 'sha256'] as const) {
    const beside = await readOptional(`${entry.diskPath}.${type}`);
    // A checksum file holds the digest, sometimes followed by the file's name.
    const digest = beside?.trim().split(/\s+/)[0]?.toLowerCase();
    if (!recorded[type] && digest) recorded[type] = digest;
  }
  return recorded;
}

/** The file's SHA-1, MD5 and SHA-256, in one streaming pass. */
export async function actualChecksums(diskPath: string): Promise<Required<RecordedChecksums>> {
  const hashes = { sha1: createHash('sha1'), md5: createHash('md5'), sha256: createHash('sha256') };
  for await (const chunk of createReadStream(diskPath))
    for (const hash of Object.values(hashes)) hash.update(chunk as Buffer);
  return {
    sha1: hashes.sha1.digest('hex'),
    md5: hashes.md5.digest('hex'),
    sha256: hashes.sha256.digest('hex'),
  };
}

/** Whether every recorded checksum is the file's own. */
export const checksumsAgree = (recorded: RecordedChecksums, actual: Required<RecordedChecksums>) =>
  (['sha1', 'md5', 'sha256'] as const).every(
    (type) => !recorded[type] || recorded[type] === actual[type],
  );

function splitPath(diskPath: string): [string, string] {
  const cut = diskPath.lastIndexOf('/');
  return [diskPath.slice(0, cut), diskPath.slice(cut + 1)];
}

function metadataName(entry: ImportEntry, file: string) {
  const parentPath = entry.path.includes('/')
    ? entry.path.slice(0, entry.path.lastIndexOf('/'))
    : '';
  const prefix = entry.kind === 'folder' ? entry.path : parentPath;
  return [prefix, METADATA_DIR, file.slice(file.lastIndexOf('/') + 1)].filter(Boolean).join('/');
}

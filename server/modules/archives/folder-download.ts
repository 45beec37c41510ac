import { Readable } from 'node:stream';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import { BadRequest, DepotError, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { splitPath } from '../artifacts/paths.ts';
import {
  ARCHIVE_CONTENT_TYPES,
  DOWNLOAD_ARCHIVE_TYPES,
  writeArchive,
  type ArchiveEntry,
  type DownloadArchiveType,
} from './archive-writer.ts';
import { DownloadSlots } from './download-slots.ts';
import { folderTotals, listFolderFiles, type FolderFile } from './folder-queries.ts';
import { admits, folderSources, type FolderSource } from './folder-sources.ts';
import { ARCHIVE_MESSAGES } from './messages.ts';

const MB = 1024 * 1024;
/** Files read per query: a folder is read a page at a time, never whole. */
const FILES_PAGE = 1000;

/** Refused for load: 429, with the spec's message (docs/archives.md says why not 400). */
export class TooManyDownloads extends DepotError {
  constructor() {
    super(429, ARCHIVE_MESSAGES.tooManyDownloads);
  }
}

export interface FolderDownloadRequest {
  repoKey: string;
  /** Normalised folder path; '' is the repository's root. */
  path: string;
  archiveType: string | undefined;
  includeChecksumFiles: boolean;
  /** The caller's item walker: files it may not read are left out of the archive. */
  walker: ItemWalker;
}

export interface FolderArchive {
  fileName: string;
  contentType: string;
  stream: Readable;
}

export function parseArchiveType(value: string | undefined): DownloadArchiveType {
  const type = (value ?? 'zip').toLowerCase();
  if (!(DOWNLOAD_ARCHIVE_TYPES as readonly string[]).includes(type)) {
    throw new BadRequest(ARCHIVE_MESSAGES.unsupportedDownloadType(value ?? ''), 'archiveType');
  }
  return type as DownloadArchiveType;
}

/**
 * Folder downloads: a folder of a local, remote (its cache) or virtual repository (its
 * members merged, the first member having a path winning, as a listing does) streamed as a
 * zip, tar or tar.gz whose entries are paths relative to the folder.
 */
export function createFolderDownloads(services: Services) {
  const { artifacts, db } = services;
  // The general configuration's limits, each overridden by its environment variable; read
  // per download, so an admin's change applies to the next one.
  const limitsNow = () => services.generalConfig.folderDownloadLimits();
  const slots = new DownloadSlots();

  /** The repositories a folder is read from, after checking the folder exists in one. */
  async function sourcesOf(repoKey: string, path: string) {
    const repo = await artifacts.repository(repoKey);
    // Patterns are judged per file (collectFiles), not on the folder: '**/*.jar' admits no
    // folder name, yet admits the jars inside.
    const sources = await folderSources(services.repositories, repo);
    const where = path ? `${repo.key}/${path}` : repo.key;
    if (path === '') return { repo, sources, where };
    const nodes = await Promise.all(sources.map((s) => artifacts.findNode(s.repo.id, path)));
    if (nodes.some((node) => node?.folder)) {
      return { repo, sources: sources.filter((_, i) => nodes[i]?.folder), where };
    }
    if (nodes.some(Boolean)) throw new BadRequest(ARCHIVE_MESSAGES.notAFolder(where));
    throw new NotFound(ARCHIVE_MESSAGES.folderNotFound(where));
  }

  /**
   * Every file of the folder the caller may read, merged over the sources (the first source
   * holding a path wins), refused past the limits. Read a page at a time; what the caller
   * may not read is left out before it counts, as a listing leaves it out.
   */
  async function collectFiles(
    path: string,
    sources: FolderSource[],
    where: string,
    walker: ItemWalker,
  ) {
    const limits = await limitsNow();
    const byPath = new Map<string, FolderFile>();
    // Past the limit only the paths are kept, to tell the caller how many it may read.
    const counted = new Set<string>();
    for (const source of sources) {
      for (let after: string | undefined; ;) {
        const page = await listFolderFiles(db, source.repo.id, path, FILES_PAGE, after);
        const fresh = page
          .filter((file) => !counted.has(file.path) && admits(source, file.path))
          .map((file) => ({ ...file, repoKey: source.repo.key }));
        for (const { repoKey: _key, ...file } of walker.readable(fresh)) {
          counted.add(file.path);
          if (counted.size <= limits.maxFiles) byPath.set(file.path, file);
        }
        if (counted.size > limits.maxFiles && walker.access.admin) break;
        if (page.length < FILES_PAGE) break;
        after = page.at(-1)!.path;
      }
    }
    if (counted.size > limits.maxFiles) {
      throw new BadRequest(
        ARCHIVE_MESSAGES.tooManyFiles(
          where,
          await countOf(path, sources, counted, walker),
          limits.maxFiles,
        ),
      );
    }
    const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    if (bytes > limits.maxSizeMb * MB) {
      throw new BadRequest(ARCHIVE_MESSAGES.tooLarge(where, bytes / MB, limits.maxSizeMb));
    }
    return files;
  }

  /**
   * How many files a refused download would hold: an administrator's are the folder's
   * totals; anyone else's only those it may read, so the number tells nothing of the others.
   */
  async function countOf(
    path: string,
    sources: FolderSource[],
    counted: Set<string>,
    walker: ItemWalker,
  ) {
    if (!walker.access.admin) return counted.size;
    const totals = await Promise.all(sources.map((s) => folderTotals(db, s.repo.id, path)));
    return totals.reduce((sum, t) => sum + t.files, 0);
  }

  function entriesOf(files: FolderFile[], folderPath: string, withChecksums: boolean) {
    const relative = (path: string) => (folderPath ? path.slice(folderPath.length + 1) : path);
    const entries: ArchiveEntry[] = [];
    for (const file of files) {
      const name = relative(file.path);
      entries.push({
        name,
        size: file.size,
        mtime: file.modifiedAt,
        open: async () => services.filestore.read(file.sha256),
      });
      if (withChecksums) entries.push(...checksumEntries(name, file));
    }
    return entries;
  }

  function checksumEntries(name: string, file: FolderFile): ArchiveEntry[] {
    const checksums: Record<string, () => Promise<string>> = {
      sha1: async () => file.sha1,
      sha256: async () => file.sha256,
      md5: async () => file.md5 ?? artifacts.md5(file.sha256),
    };
    return Object.entries(checksums).map(([kind, value]) => ({
      name: `${name}.${kind}`,
      // Hex digests: 40, 64 and 32 characters.
      size: { sha1: 40, sha256: 64, md5: 32 }[kind]!,
      mtime: file.modifiedAt,
      open: async () => Readable.from([Buffer.from(await value())]),
    }));
  }

  /** Every check of a download but the slot's: its type, the folder, the caller, the limits. */
  async function prepare(request: FolderDownloadRequest) {
    const type = parseArchiveType(request.archiveType);
    const { repo, sources, where } = await sourcesOf(request.repoKey, request.path);
    const files = await collectFiles(request.path, sources, where, request.walker);
    return { type, repo, files };
  }

  return {
    slots,

    /**
     * Whether `open` would start this download now: the console asks first (a HEAD), since
     * a browser saving a refused download straight to disk shows no message (spec 02 §4).
     * A slot is not held: the download that follows takes its own, or is refused.
     */
    async check(request: FolderDownloadRequest): Promise<void> {
      await prepare(request);
      if (slots.inUse >= (await limitsNow()).maxConcurrent) throw new TooManyDownloads();
    },

    /** The console's "download folder" dialog: how much a download would hold. */
    async info(repoKey: string, path: string, walker: ItemWalker) {
      const { sources, where } = await sourcesOf(repoKey, path);
      if (!walker.access.admin) {
        // Counted file by file: the totals below would include what the caller may not read.
        const files = await collectFiles(path, sources, where, walker);
        const bytes = files.reduce((sum, file) => sum + file.size, 0);
        return { sizeMB: Math.round((bytes / MB) * 100) / 100, totalFiles: files.length };
      }
      const totals = await Promise.all(sources.map((s) => folderTotals(db, s.repo.id, path)));
      const bytes = totals.reduce((sum, t) => sum + t.bytes, 0);
      return {
        sizeMB: Math.round((bytes / MB) * 100) / 100,
        totalFiles: totals.reduce((sum, t) => sum + t.files, 0),
      };
    },

    /**
     * Checks everything, takes a download slot and starts the archive. The slot is given
     * back when the stream closes: finished, failed or abandoned by the client.
     */
    async open(request: FolderDownloadRequest): Promise<FolderArchive> {
      const { type, repo, files } = await prepare(request);
      const release = slots.tryAcquire((await limitsNow()).maxConcurrent);
      if (!release) throw new TooManyDownloads();
      const stream = writeArchive(
        type,
        entriesOf(files, request.path, request.includeChecksumFiles),
      );
      stream.once('close', release);
      const folderName = request.path ? splitPath(request.path).name : repo.key;
      return {
        fileName: `${folderName}.${type}`,
        contentType: ARCHIVE_CONTENT_TYPES[type],
        stream,
      };
    },
  };
}

export type FolderDownloads = ReturnType<typeof createFolderDownloads>;

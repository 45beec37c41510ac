import type { DepotConfig } from '../../config.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { DeployArchiveType } from '../archives/archive-reader.ts';
import { BombGuard } from '../archives/bomb-guard.ts';
import { splitPath } from '../artifacts/paths.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import { listEntries, type ArchiveEntry } from './archive-entries.ts';
import { viewableArchiveType } from './archive-types.ts';
import { readEntry, type EntryContent } from './entry-source.ts';
import { VIEW_GUARD_MESSAGES, VIEW_SOURCE_MESSAGES } from './messages.ts';

/** The most of an entry's text View Source shows. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
/** A NUL byte this early means the entry is not text. */
const BINARY_SNIFF_BYTES = 8 * 1024;

export interface ArchiveSource {
  source: string;
  truncated: boolean;
  binary: boolean;
}

/** An archive file found in a repository, ready to be read from the filestore. */
export interface StoredArchive {
  file: string;
  type: DeployArchiveType;
  /** `repoKey/path`, for messages. */
  where: string;
}

/** UTF-8 text of a head that may end inside a character: the partial character is left out. */
const utf8 = (bytes: Buffer) => new TextDecoder().decode(bytes, { stream: true });

/**
 * View Source (spec 02 §2, §7): the entries of an archive in a repository and the text of one
 * of them. Archives are read from the filestore as streams, under the archive deploy's bomb
 * limits, and only as far as the answer needs.
 */
export function createArchiveView(services: Services, limits: DepotConfig['archiveDeploy']) {
  const guard = () => new BombGuard(limits, VIEW_GUARD_MESSAGES);

  /** The archive at a path: a file whose name says which kind; anything else is a 400. */
  async function storedArchive(repoKey: string, path: string): Promise<StoredArchive> {
    const located = await locateNode(services.artifacts, repoKey, path);
    const type = viewableArchiveType(splitPath(path).name);
    const where = `${located.repo.key}/${path}`;
    if (located.type !== 'file' || !type)
      throw new BadRequest(VIEW_SOURCE_MESSAGES.notAnArchive(where));
    return { file: services.filestore.pathOf(located.node!.sha256!), type, where };
  }

  /** The first `maxBytes` of an entry of an archive found with `storedArchive`. */
  function entryContent(archive: StoredArchive, sourcePath: string, maxBytes: number) {
    return readEntry(archive.file, archive.type, sourcePath, { guard: guard(), maxBytes });
  }

  return {
    storedArchive,
    entryContent,

    async entries(repoKey: string, archivePath: string) {
      const archive = await storedArchive(repoKey, archivePath);
      return listEntries(archive.file, archive.type, guard());
    },

    async source(repoKey: string, archivePath: string, sourcePath: string): Promise<ArchiveSource> {
      const archive = await storedArchive(repoKey, archivePath);
      const content: EntryContent = await entryContent(archive, sourcePath, MAX_SOURCE_BYTES);
      if (content.kind === 'missing')
        throw new NotFound(VIEW_SOURCE_MESSAGES.entryNotFound(sourcePath, archivePath));
      if (content.kind === 'folder')
        throw new BadRequest(VIEW_SOURCE_MESSAGES.folderEntry(sourcePath, archivePath));
      const binary = content.head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
      return { source: binary ? '' : utf8(content.head), truncated: content.truncated, binary };
    },
  };
}

export type ArchiveView = ReturnType<typeof createArchiveView>;
export type { ArchiveEntry };

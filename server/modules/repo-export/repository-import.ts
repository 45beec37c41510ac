import { createReadStream } from 'node:fs';
import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, DepotError } from '../../errors.ts';
import { writeProperties } from '../artifacts/properties.ts';
import { checkPropertyBatch } from '../artifacts/property-limits.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import {
  actualChecksums,
  checksumsAgree,
  importEntries,
  recordedChecksums,
  recordedProperties,
} from './import-tree.ts';
import { UnreadableMetadata } from './metadata-xml.ts';
import { metadataFolder } from '../../formats/maven/layout.ts';
import { REPO_EXPORT_MESSAGES as M } from './messages.ts';
import { folderId } from './queries.ts';

/** One repository's part of an import: its folder on disk and where it goes. */
export interface ImportSource {
  /** `maven`: a Maven repository, whose maven-metadata.xml Depot generates itself. */
  repo: { id: number; key: string; maven?: boolean };
  root: string;
}

export interface ImportDeps {
  db: Database;
  artifacts: Pick<ArtifactsService, 'deploy'>;
  log: (item: string) => void;
}

export interface RepositoryImport {
  repoKey: string;
  files: number;
  bytes: number;
  failures: { item: string; reason: string }[];
  /** Symbolic links, which an import never follows. */
  skipped: string[];
}

/** Items a mismatch message names; the rest are counted. */
const NAMED_MISMATCHES = 20;

/**
 * Reads everything to import before writing anything: every metadata file must parse, every
 * property set be one Depot accepts, every file match the checksums recorded for it. A
 * failure refuses the whole import (400 for unreadable metadata, 409 naming the mismatched
 * files), so a bad export never leaves a repository half imported.
 */
export async function verifyImport(sources: ImportSource[]): Promise<void> {
  const mismatched: string[] = [];
  for (const { repo, root } of sources) {
    for await (const entry of importEntries(root, [])) {
      try {
        const properties = await recordedProperties(entry);
        checkPropertyBatch(properties);
        if (entry.kind === 'folder') continue;
        const recorded = await recordedChecksums(entry);
        if (!checksumsAgree(recorded, await actualChecksums(entry.diskPath)))
          mismatched.push(`${repo.key}/${entry.path}`);
      } catch (error) {
        if (error instanceof UnreadableMetadata) {
          const [file, ...reason] = error.message.split(': ');
          throw new BadRequest(M.unreadableMetadata(`${repo.key}/${file}`, reason.join(': ')));
        }
        throw error;
      }
    }
  }
  if (mismatched.length > 0)
    throw new Conflict(
      M.mismatches(
        mismatched.slice(0, NAMED_MISMATCHES),
        Math.max(0, mismatched.length - NAMED_MISMATCHES),
      ),
    );
}

/**
 * Deploys a verified folder into its repository through the normal deploy path (checksums
 * verified again as the content is stored, package indexing, events), adding or replacing
 * files, each with its recorded properties (unless `includeMetadata` is off); then sets the folders' own properties. A file
 * the repository refuses (its include/exclude patterns, a folder at its path) is reported
 * and the rest go on.
 */
export async function importRepository(
  deps: ImportDeps,
  { repo, root }: ImportSource,
  { includeMetadata, user }: { includeMetadata: boolean; user: string },
): Promise<RepositoryImport> {
  const result: RepositoryImport = {
    repoKey: repo.key,
    files: 0,
    bytes: 0,
    failures: [],
    skipped: [],
  };
  const folders: { path: string; properties: Record<string, string[]> }[] = [];
  for await (const entry of importEntries(root, result.skipped)) {
    const properties = includeMetadata ? await recordedProperties(entry) : {};
    if (entry.kind === 'folder') {
      if (Object.keys(properties).length > 0) folders.push({ path: entry.path, properties });
      continue;
    }
    // An m2 export's maven-metadata.xml: Depot answers its own, from the files imported.
    if (repo.maven && metadataFolder(entry.path) !== undefined) continue;
    try {
      const recorded = await recordedChecksums(entry);
      const { blob } = await deps.artifacts.deploy({
        repoKey: repo.key,
        path: entry.path,
        content: createReadStream(entry.diskPath),
        expected: recorded,
        byChecksum: false,
        properties,
        user,
      });
      result.files += 1;
      result.bytes += blob.size;
      deps.log(`${repo.key}/${entry.path}`);
    } catch (error) {
      if (!(error instanceof DepotError)) throw error;
      result.failures.push({ item: `${repo.key}/${entry.path}`, reason: error.message });
    }
  }
  for (const folder of folders) {
    const id = await folderId(deps.db, repo.id, folder.path);
    if (id === undefined) continue; // an empty folder: Depot keeps folders that hold files
    await deps.db.transaction().execute((tx) => writeProperties(tx, [id], folder.properties, user));
  }
  return result;
}

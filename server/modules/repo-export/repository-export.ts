import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { METADATA_FILE, isSnapshotVersion, parseMavenPath } from '../../formats/maven/layout.ts';
import type { Properties } from '../artifacts/properties.ts';
import type { BlobHold } from '../maintenance/blob-hold.ts';
import {
  FILE_INFO_SUFFIX,
  FOLDER_PROPERTIES,
  METADATA_DIR,
  PROPERTIES_SUFFIX,
  fileInfoXml,
  propertiesXml,
} from './metadata-xml.ts';
import { nodesPage, propertiesOfNodes, type ExportedNode } from './queries.ts';

export interface ExportOptions {
  includeMetadata: boolean;
  /** Maven 2 checksum files (`.sha1`, `.md5`) beside each file. */
  m2: boolean;
  excludeContent: boolean;
}

export interface ExportDeps {
  db: Database;
  filestore: Filestore;
  blobHold: BlobHold;
  /** A file's MD5, computed when the blob has none recorded yet. */
  md5: (sha256: string) => Promise<string>;
  /** The maven-metadata.xml Depot answers for a folder of a local Maven repository. */
  mavenMetadata: (repositoryId: number, folder: string) => Promise<string | undefined>;
  log: (item: string) => void;
}

export interface RepositoryExport {
  repoKey: string;
  files: number;
  bytes: number;
  /** Items deleted while the export ran: they are not in it. */
  skipped: string[];
}

const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Writes one local repository into `<exportPath>/<repoKey>/` in Artifactory's layout: each
 * file at its path, its metadata in the parent's `.artifactory-metadata` folder. It is
 * written under a temp name and swapped in at the end, so a failed export leaves the
 * previous one as it was. Garbage collection is held off while blobs are copied.
 */
export async function exportRepository(
  deps: ExportDeps,
  repo: { id: number; key: string; maven: boolean },
  exportPath: string,
  options: ExportOptions,
): Promise<RepositoryExport> {
  await mkdir(exportPath, { recursive: true });
  const temp = join(exportPath, `.${repo.key}.${randomBytes(4).toString('hex')}.partial`);
  await mkdir(temp);
  const result: RepositoryExport = { repoKey: repo.key, files: 0, bytes: 0, skipped: [] };
  // With `m2`, a Maven repository's metadata goes beside its artifacts, as Artifactory's does.
  const metadataFolders = repo.maven && options.m2 ? new Set<string>() : undefined;
  try {
    await deps.blobHold.during(async () => {
      for (let after = 0; ;) {
        const page = await nodesPage(deps.db, repo.id, after);
        if (page.length === 0) break;
        after = Number(page.at(-1)!.id);
        const properties = options.includeMetadata
          ? await propertiesOfNodes(
              deps.db,
              page.map((node) => Number(node.id)),
            )
          : new Map<number, Properties>();
        for (const node of page) {
          const written = await writeNode(deps, repo.key, temp, node, options, properties);
          if (written === 'skipped') result.skipped.push(node.path);
          else if (written === 'file') {
            if (metadataFolders) addMetadataFolders(metadataFolders, node.path);
            result.files += 1;
            result.bytes += Number(node.size);
            deps.log(`${repo.key}/${node.path}`);
          }
        }
      }
    });
    if (metadataFolders) await writeMavenMetadata(deps, repo.id, temp, metadataFolders);
    await swapIn(temp, join(exportPath, repo.key));
    return result;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Writes one item and its metadata; a file whose blob went meanwhile is skipped. */
async function writeNode(
  deps: ExportDeps,
  repoKey: string,
  root: string,
  node: ExportedNode,
  options: ExportOptions,
  properties: Map<number, Properties>,
): Promise<'file' | 'folder' | 'skipped'> {
  const own = properties.get(Number(node.id));
  if (node.folder) {
    await mkdir(join(root, node.path), { recursive: true });
    if (own) await writeMetadata(join(root, node.path), FOLDER_PROPERTIES, propertiesXml(own));
    return 'folder';
  }
  const parent = join(root, node.path, '..');
  await mkdir(parent, { recursive: true });
  const target = join(root, node.path);
  const checksums = {
    sha256: node.sha256!,
    sha1: node.sha1 ?? '',
    md5: node.md5 ?? (await deps.md5(node.sha256!).catch(() => '')),
  };
  if (!options.excludeContent) {
    try {
      await copyFile(deps.filestore.pathOf(node.sha256!), target);
    } catch (error) {
      if (gone(error)) return 'skipped';
      throw error;
    }
  }
  if (options.m2 && !options.excludeContent) {
    await writeFile(`${target}.sha1`, checksums.sha1);
    await writeFile(`${target}.md5`, checksums.md5);
  }
  if (options.includeMetadata) {
    if (own) await writeMetadata(parent, `${node.name}${PROPERTIES_SUFFIX}`, propertiesXml(own));
    const info = fileInfoXml({
      name: node.name,
      repoKey,
      relPath: node.path,
      size: Number(node.size),
      mimeType: node.mime_type,
      created: new Date(node.created_at),
      createdBy: node.created_by,
      modified: new Date(node.modified_at),
      modifiedBy: node.modified_by,
      checksums,
    });
    await writeMetadata(parent, `${node.name}${FILE_INFO_SUFFIX}`, info);
  }
  return 'file';
}

/** The folders of a Maven file that have a maven-metadata.xml: its artifact's, its snapshot's. */
function addMetadataFolders(folders: Set<string>, path: string) {
  const file = parseMavenPath(path);
  if (!file) return;
  const versionFolder = path.slice(0, path.lastIndexOf('/'));
  folders.add(versionFolder.slice(0, versionFolder.lastIndexOf('/')));
  if (isSnapshotVersion(file.version)) folders.add(versionFolder);
}

/**
 * Writes each folder's maven-metadata.xml, with its `.sha1` and `.md5`, as Depot answers it
 * to a GET (generated from the repository's files, so it lists what the export holds).
 */
async function writeMavenMetadata(
  deps: ExportDeps,
  repositoryId: number,
  root: string,
  folders: Set<string>,
) {
  for (const folder of folders) {
    const xml = await deps.mavenMetadata(repositoryId, folder);
    if (xml === undefined) continue;
    const target = join(root, folder, METADATA_FILE);
    await writeFile(target, xml);
    for (const algorithm of ['sha1', 'md5'])
      await writeFile(`${target}.${algorithm}`, createHash(algorithm).update(xml).digest('hex'));
  }
}

async function writeMetadata(folder: string, name: string, xml: string) {
  await mkdir(join(folder, METADATA_DIR), { recursive: true });
  await writeFile(join(folder, METADATA_DIR, name), xml);
}

/** Puts the finished export at `target`, replacing an earlier export of the same repository. */
async function swapIn(temp: string, target: string) {
  const old = `${temp}.old`;
  const hadOne = await rename(target, old).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await rename(temp, target);
  if (hadOne) await rm(old, { recursive: true, force: true });
}

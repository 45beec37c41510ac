import { finished, Transform, type Readable } from 'node:stream';
import type { DepotConfig } from '../../config.ts';
import { BadRequest, Forbidden } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Checksums } from '../../storage/filestore.ts';
import { acceptsPath } from '../artifacts/ant-pattern.ts';
import { ancestorsOf, splitPath } from '../artifacts/paths.ts';
import type { StagedFile } from '../artifacts/service.ts';
import { deployArchiveType, readArchive, type RawEntry } from './archive-reader.ts';
import { ArchiveTooLarge, BombGuard } from './bomb-guard.ts';
import { entryPath } from './entry-names.ts';
import { ARCHIVE_MESSAGES } from './messages.ts';
import type { ItemWalker, Need } from '../access-control/subtree-walk.ts';

const MB = 1024 * 1024;
/** Room a tar or zip needs besides its content: headers, padding, directory records. */
const ARCHIVE_OVERHEAD_PER_ENTRY = 1024;

export interface ExplodeRequest {
  repoKey: string;
  /** Where the archive was PUT ('dir/bundle.zip'); its entries land in its folder ('dir'). */
  path: string;
  content: Readable;
  /** X-Checksum-* of the archive itself. */
  expected: Partial<Checksums>;
  /** `;key=value` properties of the PUT, set on every deployed entry. */
  properties: Record<string, string[]>;
  atomic: boolean;
  user: string;
  /**
   * The caller's item walker: Deploy on every entry, and Delete/Overwrite on each that
   * replaces a stored file, all checked before anything is recorded.
   */
  walker: ItemWalker;
}

type Repository = Awaited<ReturnType<Services['artifacts']['deployTarget']>>;

/** Staged entries, by target path, and the folders the archive names. */
interface StagedTree {
  files: Map<string, StagedFile>;
  folders: Set<string>;
}

/**
 * Deploys the content of an archive (Artifactory's "deploy bundle"). The upload is spooled
 * to the filestore's temp area (checked against the sent checksums), then every entry is
 * checked and streamed through the filestore's stage step under the bomb limits; only when
 * the whole archive has passed is anything recorded. A refused archive leaves no row, no
 * blob and no temp file.
 */
export function createBundleDeploys(services: Services, limits: DepotConfig['archiveDeploy']) {
  const { artifacts, filestore } = services;
  const maxArchiveBytes = limits.maxSizeMb * MB + limits.maxEntries * ARCHIVE_OVERHEAD_PER_ENTRY;

  async function stageEntry(
    entry: RawEntry,
    target: { repo: Repository; folder: string },
    guard: BombGuard,
    tree: StagedTree,
  ) {
    guard.countEntry();
    const path = entryPath(entry.name, target.folder);
    if (path === undefined) return;
    if (entry.kind === 'directory') {
      tree.folders.add(path);
      return;
    }
    if (entry.kind !== 'file' && entry.kind !== 'contiguous-file') {
      throw new BadRequest(ARCHIVE_MESSAGES.unsupportedEntryType(entry.name, entry.kind));
    }
    const { repo } = target;
    if (!acceptsPath(repo.includes_pattern, repo.excludes_pattern, path)) {
      throw new Forbidden(
        `The path '${path}' is not allowed by the include and exclude patterns of repository '${repo.key}'. Nothing was deployed`,
      );
    }
    const content = await entry.open();
    const meter = pipeInto(content, guard.meter(entry.name, entry.compression, entry.recorded));
    const staged = await filestore.stage(meter).catch((error: unknown) => {
      content.destroy();
      throw error;
    });
    const earlier = tree.files.get(path); // a later entry of the same name wins, as tar's does
    if (earlier) await filestore.discard(earlier.staged);
    tree.files.set(path, { path, staged });
  }

  return {
    async explode(request: ExplodeRequest) {
      const { parentPath: folder, name } = splitPath(request.path);
      const type = deployArchiveType(name);
      if (!type) throw new BadRequest(ARCHIVE_MESSAGES.unsupportedDeployType(name));
      const repo = await artifacts.deployTarget(request.repoKey);
      const spooled = await filestore.stage(
        pipeInto(request.content, capBytes(maxArchiveBytes, limits.maxSizeMb)),
        request.expected,
      );
      const guard = guardFor(limits, request.atomic);
      const tree: StagedTree = { files: new Map(), folders: new Set() };
      try {
        await readArchive(spooled.tmpPath, type, (entry) =>
          stageEntry(entry, { repo, folder }, guard, tree),
        );
        assertNoClash(tree);
        const files = [...tree.files.values()];
        const stored = async (path: string) => Boolean(await artifacts.findNode(repo.id, path));
        await checkEntries(request.walker, { repo, folder, stored }, files, [...tree.folders]);
        await artifacts.deployStaged(
          repo,
          { files, folders: [...tree.folders] },
          { user: request.user, properties: request.properties },
          request.atomic,
        );
        return {
          repo: repo.key,
          path: `/${folder}`,
          files: files.length,
          size: files.reduce((sum, file) => sum + file.staged.size, 0),
          atomic: request.atomic,
        };
      } finally {
        for (const file of tree.files.values()) await filestore.discard(file.staged);
        await filestore.discard(spooled);
      }
    },
  };
}

/**
 * Every entry through the caller's walker before anything is recorded: Deploy on each file
 * and folder, and Delete/Overwrite on each file that replaces one stored there. The paths
 * are the caller's own (its archive names them), so a refusal may name them.
 */
async function checkEntries(
  walker: ItemWalker,
  target: { repo: Repository; folder: string; stored: (path: string) => Promise<boolean> },
  files: StagedFile[],
  folders: string[],
) {
  if (walker.access.admin) return;
  const { repo, folder } = target;
  const replaced = new Set<string>();
  for (const file of files) if (await target.stored(file.path)) replaced.add(file.path);
  const entries = [
    ...files.map((file) => ({ path: file.path, folder: false })),
    ...folders.map((path) => ({ path, folder: true })),
  ];
  walker.check(entries, {
    named: { repoKey: repo.key, path: folder, action: 'deploy' },
    needs: (entry): Need[] => {
      const at = { repoKey: repo.key, path: entry.path, known: true } as const;
      if (entry.folder) return [{ action: 'deploy', kind: 'folder', ...at }];
      return [
        { action: 'deploy', kind: 'file', ...at },
        ...(replaced.has(entry.path)
          ? [{ action: 'delete', verb: 'overwrite', kind: 'file', ...at } as const]
          : []),
      ];
    },
  });
}

/**
 * The bomb guard of one deploy. An atomic one is recorded in one transaction, which holds
 * the embedded database while it runs: it is held to fewer entries, with its own message.
 */
function guardFor(limits: DepotConfig['archiveDeploy'], atomic: boolean): BombGuard {
  if (!atomic || limits.maxAtomicEntries >= limits.maxEntries) return new BombGuard(limits);
  return new BombGuard(
    { ...limits, maxEntries: limits.maxAtomicEntries },
    { ...ARCHIVE_MESSAGES, tooManyEntries: ARCHIVE_MESSAGES.tooManyAtomicEntries },
  );
}

/** A path cannot be a file and a folder at once, within the archive either. */
function assertNoClash(tree: StagedTree) {
  const folders = new Set(tree.folders);
  for (const path of [...tree.files.keys(), ...tree.folders]) {
    for (const ancestor of ancestorsOf(path)) folders.add(ancestor);
  }
  for (const path of tree.files.keys()) {
    if (folders.has(path)) throw new BadRequest(ARCHIVE_MESSAGES.entryClash(path));
  }
}

/** Fails an upload as soon as it passes `max` bytes, before it fills the disk. */
function capBytes(max: number, maxMb: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? new ArchiveTooLarge(ARCHIVE_MESSAGES.tooManyBytes(maxMb)) : null, chunk);
    },
  });
}

/** Pipes a source into a transform that also fails when the source fails or stops short. */
function pipeInto(source: Readable, into: Transform): Transform {
  finished(source, { writable: false }, (error) => {
    if (error) into.destroy(error);
  });
  return source.pipe(into);
}

export type BundleDeploys = ReturnType<typeof createBundleDeploys>;

import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { DownloadStatsService } from '../maintenance/download-stats.ts';
import { folderFileSizes, folderTotals } from '../archives/folder-queries.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import { dependencyDeclaration, type BuildTool } from './dependency-declaration.ts';
import { artifactGeneral, type ArtifactGeneral } from './general-info.ts';
import { GENERAL_MESSAGES } from './messages.ts';

export interface ArtifactsCount {
  artifactsCount: number;
  /** Bytes. */
  artifactSize: number;
}

/** Files read per query when counting what a caller may read below a folder. */
const COUNT_PAGE = 1000;

interface Dependencies {
  db: Database;
  artifacts: ArtifactsService;
  filestore: Filestore;
  downloadStats: DownloadStatsService;
}

/** The tree browser's General tab: a node's facts, what lies below a folder, how to depend on a file. */
export function createArtifactGeneralService({
  db,
  artifacts,
  filestore,
  downloadStats,
}: Dependencies) {
  /** The files below a folder of one repository the caller may read, counted a page at a time. */
  async function readableTotals(
    repo: { id: number; key: string },
    path: string,
    walker: ItemWalker,
  ) {
    const totals = { files: 0, bytes: 0 };
    for (let after: string | undefined; ;) {
      const page = await folderFileSizes(db, repo.id, path, COUNT_PAGE, after);
      for (const file of walker.readable(page.map((f) => ({ ...f, repoKey: repo.key })))) {
        totals.files += 1;
        totals.bytes += Number(file.size);
      }
      if (page.length < COUNT_PAGE) return totals;
      after = page.at(-1)!.path;
    }
  }

  /** The file at a path, where it is stored (a virtual repository's member), or a 400. */
  async function locateFile(repoKey: string, path: string) {
    const located = await locateNode(artifacts, repoKey, path);
    if (located.type !== 'file' || !located.node)
      throw new BadRequest(GENERAL_MESSAGES.notAFile(located.repo.key, path));
    return { ...located, node: located.node };
  }

  return {
    /** `mayFix`: whether the caller may fix the file's checksums (deploy on its path). */
    async general(repoKey: string, path: string, mayFix = false): Promise<ArtifactGeneral> {
      const located = await locateNode(artifacts, repoKey, path);
      const stats = located.type === 'file' ? await downloadStats.get(located.node!.id) : undefined;
      return artifactGeneral(located, { stats, mayFix });
    },

    /**
     * The checksum fix (spec 02 §7 `/ui/checksums/fix`): reads the file's content again and
     * computes all three checksums. When they match what is stored, a missing MD5 is kept;
     * when they do not, the content on disk was damaged or changed: a 409 says so and nothing
     * is written, since only a new deploy can bring the right bytes back.
     */
    async fixChecksums(
      repoKey: string,
      path: string,
      mayDeployIn: (storedIn: string) => Promise<unknown>,
    ): Promise<{ info: string }> {
      const { repo, node, source } = await locateFile(repoKey, path);
      await mayDeployIn((source ?? repo).key);
      const where = `${repo.key}/${node.path}`;
      const computed = await filestore.checksumsOf(node.sha256!).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // gone from disk
        throw error;
      });
      if (!computed || computed.sha256 !== node.sha256 || computed.sha1 !== node.sha1)
        throw new Conflict(GENERAL_MESSAGES.contentDamaged(where));
      await db
        .updateTable('blobs')
        .set({ md5: computed.md5 })
        .where('sha256', '=', computed.sha256)
        .where('md5', 'is', null)
        .execute();
      return { info: GENERAL_MESSAGES.checksumsFixed(where) };
    },

    /**
     * Files below a folder or repository and their total size: one aggregate per repository
     * read (the folder download's own count), so a folder of a million files costs no rows in
     * memory. A virtual repository adds up its members', as the folder download dialog does.
     */
    /**
     * How many files lie below a folder, and their size: only those the caller may read, so
     * that the figures tell nothing of the others.
     */
    async artifactsCount(
      repoKey: string,
      path: string,
      walker: ItemWalker,
    ): Promise<ArtifactsCount> {
      const located = await locateNode(artifacts, repoKey, path);
      if (located.type === 'file')
        throw new BadRequest(GENERAL_MESSAGES.countOfFile(located.repo.key, path));
      const sources = await artifacts.readOrder(located.repo, path);
      const totals = await Promise.all(
        sources.map((s) =>
          walker.access.admin ? folderTotals(db, s.id, path) : readableTotals(s, path, walker),
        ),
      );
      return {
        artifactsCount: totals.reduce((sum, t) => sum + t.files, 0),
        artifactSize: totals.reduce((sum, t) => sum + t.bytes, 0),
      };
    },

    async dependencyDeclaration(tool: BuildTool, repoKey: string, path: string) {
      const located = await locateNode(artifacts, repoKey, path);
      const declaration =
        located.type === 'file' ? dependencyDeclaration(tool, located.path) : undefined;
      if (!declaration) throw new NotFound(GENERAL_MESSAGES.noDeclaration(path, tool));
      return { dependencyData: declaration };
    },
  };
}

export type ArtifactGeneralService = ReturnType<typeof createArtifactGeneralService>;

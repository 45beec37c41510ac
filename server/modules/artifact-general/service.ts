import type { Database } from '../../db/database.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { folderTotals } from '../archives/folder-queries.ts';
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

/** The tree browser's General tab: a node's facts, what lies below a folder, how to depend on a file. */
export function createArtifactGeneralService(db: Database, artifacts: ArtifactsService) {
  return {
    async general(repoKey: string, path: string): Promise<ArtifactGeneral> {
      return artifactGeneral(await locateNode(artifacts, repoKey, path));
    },

    /**
     * Files below a folder or repository and their total size: one aggregate per repository
     * read (the folder download's own count), so a folder of a million files costs no rows in
     * memory. A virtual repository adds up its members', as the folder download dialog does.
     */
    async artifactsCount(repoKey: string, path: string): Promise<ArtifactsCount> {
      const located = await locateNode(artifacts, repoKey, path);
      if (located.type === 'file')
        throw new BadRequest(GENERAL_MESSAGES.countOfFile(located.repo.key, path));
      const sources = await artifacts.readOrder(located.repo, path);
      const totals = await Promise.all(sources.map((s) => folderTotals(db, s.id, path)));
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

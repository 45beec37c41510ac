import { NotFound } from '../../errors.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { TREE_MESSAGES } from './messages.ts';

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;
type NodeRow = NonNullable<Awaited<ReturnType<ArtifactsService['findNode']>>>;

/** A node of the tree as the server finds it, whatever the console said it was. */
export interface LocatedNode {
  type: 'repository' | 'folder' | 'file';
  /** The repository asked for: a virtual one stays virtual. */
  repo: RepositoryRow;
  /** Normalised; '' for the repository itself. */
  path: string;
  /** The stored row; absent for a repository. */
  node?: NodeRow;
  /** Where the row was found: the repository itself, or the first member of a virtual that has it. */
  source?: RepositoryRow;
}

/**
 * Finds a repository or the node at `path` in it, reading a virtual repository's members in
 * the order a download does. An unknown repository or path is a 404; the path's message is
 * the tree's own, so the console shows it after the missing segment (spec 02 §8).
 */
export async function locateNode(
  artifacts: ArtifactsService,
  repoKey: string,
  path: string,
): Promise<LocatedNode> {
  const repo = await artifacts.repository(repoKey);
  if (path === '') return { type: 'repository', repo, path };
  for (const source of await artifacts.readOrder(repo, path)) {
    const node = await artifacts.findNode(source.id, path);
    if (node) return { type: node.folder ? 'folder' : 'file', repo, path, node, source };
  }
  throw new NotFound(TREE_MESSAGES.notFound(repo.key, path));
}

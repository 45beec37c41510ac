import type { TransferRequest, TreeNode } from '../../api/treeBrowser';

/** Package types that share the Maven layout, so their artifacts may move between them. */
const MAVEN_LIKE = new Set(['maven', 'gradle', 'ivy', 'sbt']);

/**
 * The repositories a node may be copied, moved or restored into (spec 02 §4 Node actions):
 * the same package type, a generic one, or any Maven-like one for a Maven-like source.
 * Restoring from the trash can accepts any local repository. Never the node's own
 * repository for a move to the same place: that is left to the server's message.
 */
export function compatibleTargets(
  action: 'copy' | 'move' | 'restore',
  node: TreeNode,
  repositories: TreeNode[],
): TreeNode[] {
  if (action === 'restore') return repositories;
  const source = node.repoPkgType.toLowerCase();
  return repositories.filter((repo) => {
    const type = repo.repoPkgType.toLowerCase();
    return (
      type === source || type === 'generic' || (MAVEN_LIKE.has(type) && MAVEN_LIKE.has(source))
    );
  });
}

/** `repoKey/a/b` → `repoKey/a`; a repository's parent is the tree's top (''). */
export function parentPathOf(id: string): string {
  const slash = id.lastIndexOf('/');
  return slash < 0 ? '' : id.slice(0, slash);
}

/** Where a copy, move or restore puts the node: a trailing '/' means "inside, own name". */
export function transferDestination(request: TransferRequest): string {
  const name = request.path.split('/').pop() ?? '';
  const path = request.targetPath.endsWith('/')
    ? `${request.targetPath}${name}`
    : request.targetPath;
  return [request.targetRepoKey, ...path.split('/').filter(Boolean)].join('/');
}

/** Where a restore goes when not told otherwise: back where it was deleted from. */
export function originalLocation(trashNode: TreeNode): { repoKey: string; path: string } {
  const [repoKey = '', ...rest] = trashNode.path.split('/');
  return { repoKey, path: rest.join('/') };
}

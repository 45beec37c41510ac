import type { DepotApp } from '../../server/app.ts';

/**
 * What breaks "a file and a folder never share a path" in a repository's tree, read straight
 * from the database: a node whose parent folder is missing, or whose parent is a file. Empty
 * when the tree is whole.
 */
export async function treeViolations(depot: DepotApp, repoKey: string): Promise<string[]> {
  const repo = await depot.services.artifacts.repository(repoKey);
  const nodes = await depot.services.db
    .selectFrom('nodes')
    .select(['path', 'parent_path', 'folder'])
    .where('repository_id', '=', repo.id)
    .execute();
  const byPath = new Map(nodes.map((node) => [node.path, node]));
  const violations: string[] = [];
  for (const node of nodes) {
    if (node.parent_path === '') continue;
    const parent = byPath.get(node.parent_path);
    if (!parent) violations.push(`${node.path}: no parent folder '${node.parent_path}'`);
    else if (!parent.folder) violations.push(`${node.path}: its parent '${parent.path}' is a file`);
  }
  return violations;
}

/** Every node of a repository: path → the file's SHA-256, or 'folder'. */
export async function treeOf(depot: DepotApp, repoKey: string): Promise<Map<string, string>> {
  const repo = await depot.services.artifacts.repository(repoKey);
  const nodes = await depot.services.db
    .selectFrom('nodes')
    .select(['path', 'folder', 'sha256'])
    .where('repository_id', '=', repo.id)
    .orderBy('path')
    .execute();
  return new Map(nodes.map((node) => [node.path, node.folder ? 'folder' : node.sha256!]));
}

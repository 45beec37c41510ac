import type { Services } from '../../services.ts';
import { acceptsPath } from '../artifacts/ant-pattern.ts';

type Repository = NonNullable<Awaited<ReturnType<Services['repositories']['findRow']>>>;

/** A repository a folder is read from, with the include/exclude rules of the virtuals above it. */
export interface FolderSource {
  repo: Repository;
  rules: { includes: string; excludes: string }[];
}

/**
 * The repositories a folder download reads, in the order a GET resolves a path: a local or
 * remote repository itself; a virtual one its members, depth first, each once. Unlike a
 * single GET, a download holds many paths, so each source keeps the patterns of every
 * virtual it was reached through, and `admits` judges each file by all of them.
 */
export async function folderSources(
  repositories: Services['repositories'],
  repo: Repository,
  rules: FolderSource['rules'] = [],
  seen = new Set<number>(),
): Promise<FolderSource[]> {
  if (seen.has(repo.id)) return [];
  seen.add(repo.id);
  if (repo.rclass !== 'virtual') return [{ repo, rules }];
  const inner = [...rules, { includes: repo.includes_pattern, excludes: repo.excludes_pattern }];
  const members = (repo.config as { repositories?: string[] }).repositories ?? [];
  const sources: FolderSource[] = [];
  for (const key of members) {
    const member = await repositories.findRow(key);
    if (member) sources.push(...(await folderSources(repositories, member, inner, seen)));
  }
  return sources;
}

/** Whether every virtual a source was reached through lets this path through. */
export const admits = (source: FolderSource, path: string) =>
  source.rules.every((rule) => acceptsPath(rule.includes, rule.excludes, path));

import type { AccessDecider } from '../access-control/decider.ts';
import type { RemoteService } from '../remote/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { withTrailingWildcard } from './wildcards.ts';

/** A file or package an upstream's search found, as the console lists it. */
export interface RemoteResult {
  repoKey: string;
  path: string;
  name: string;
  packageName?: string;
  version?: string;
}

type RepositoryRow = Parameters<RemoteService['askJson']>[0];

/** npm's search answers at most 250 per request. */
const NPM_SEARCH_SIZE = 250;

/** `.../artifactory/{key}/`: an upstream that is another Depot or an Artifactory. */
const ARTIFACTORY_REPOSITORY_URL = /\/artifactory\/([^/]+)\/?$/;

/** How a remote repository's upstream can be searched, or undefined when it cannot. */
function upstreamSearchPath(packageType: string, url: string, term: string): string | undefined {
  if (packageType === 'npm')
    return `-/v1/search?${new URLSearchParams({ text: term, size: String(NPM_SEARCH_SIZE) })}`;
  const upstreamKey = ARTIFACTORY_REPOSITORY_URL.exec(new URL(url).pathname)?.[1];
  if (!upstreamKey) return undefined;
  const query = new URLSearchParams({ name: withTrailingWildcard(term), repos: upstreamKey });
  return `../api/search/artifact?${query}`;
}

function npmResults(repoKey: string, answer: unknown): RemoteResult[] {
  const objects = (answer as { objects?: unknown } | undefined)?.objects;
  if (!Array.isArray(objects)) return [];
  return objects.flatMap((entry: { package?: { name?: unknown; version?: unknown } }) => {
    const { name, version } = entry?.package ?? {};
    if (typeof name !== 'string' || typeof version !== 'string') return [];
    const file = `${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
    return [{ repoKey, path: `${name}/-/${file}`, name: file, packageName: name, version }];
  });
}

function artifactoryResults(repoKey: string, url: string, answer: unknown): RemoteResult[] {
  const upstreamKey = ARTIFACTORY_REPOSITORY_URL.exec(new URL(url).pathname)?.[1];
  const results = (answer as { results?: unknown } | undefined)?.results;
  if (!upstreamKey || !Array.isArray(results)) return [];
  const marker = `/api/storage/${upstreamKey}/`;
  return results.flatMap((entry: { uri?: unknown }) => {
    if (typeof entry?.uri !== 'string') return [];
    const at = entry.uri.indexOf(marker);
    if (at < 0) return [];
    const path = decodeURIComponent(entry.uri.slice(at + marker.length));
    return [{ repoKey, path, name: path.slice(path.lastIndexOf('/') + 1) }];
  });
}

/**
 * The Remote search (spec 02 §2): asks the upstream of every remote repository the caller
 * may read whose upstream can answer a search (npm registries, other Depots and
 * Artifactories), in parallel. Repositories that are offline or fail are named in
 * `unavailable` rather than failing the whole search.
 */
export async function searchRemotes(
  deps: { repositories: RepositoriesService; remote: RemoteService },
  access: AccessDecider,
  term: string,
): Promise<{ results: RemoteResult[]; unavailable: string[] }> {
  const remotes = (await deps.repositories.list({ rclass: 'remote' })).filter(
    (repo) => repo.url && access.can('read', repo.key, '', 'folder'),
  );
  const asked = remotes.flatMap((repo) => {
    const path = upstreamSearchPath(repo.packageType, repo.url!, term);
    return path ? [{ repo, path }] : [];
  });
  const answers = await Promise.allSettled(
    asked.map(async ({ repo, path }) => {
      const row = (await deps.repositories.findRow(repo.key)) as RepositoryRow;
      const answer = await deps.remote.askJson(row, path);
      if (answer === undefined) throw new Error('no answer');
      return repo.packageType === 'npm'
        ? npmResults(repo.key, answer)
        : artifactoryResults(repo.key, repo.url!, answer);
    }),
  );
  const results: RemoteResult[] = [];
  const unavailable: string[] = [];
  answers.forEach((answer, index) => {
    // What the caller may not read of a repository stays hidden, as in every other search.
    if (answer.status === 'fulfilled')
      results.push(...answer.value.filter((row) => access.can('read', row.repoKey, row.path)));
    else unavailable.push(asked[index]!.repo.key);
  });
  return { results, unavailable };
}

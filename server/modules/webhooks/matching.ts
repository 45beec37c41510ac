import { acceptsPath } from '../artifacts/ant-pattern.ts';
import type { OutboxRow } from './queries.ts';
import type { Subscription } from './subscription.ts';

/** The repositories an event concerns: where it happened, and where a move or copy went. */
export const eventRepositories = (event: Pick<OutboxRow, 'repo_key' | 'target_repo_key'>) =>
  [event.repo_key, event.target_repo_key].filter((key): key is string => key !== null);

/**
 * Whether a subscription wants an event (docs/webhooks.md, "Filters"): enabled, the event's
 * domain and type selected, and for an event in a repository, the repository chosen (by
 * name, or as any local or any remote one; a move or copy matches by where it came from or
 * where it went) and its path accepted by the include and exclude patterns; for a build
 * event, the build chosen (below).
 */
export function subscriptionWants(
  subscription: Subscription,
  event: OutboxRow,
  repositoryClass: (key: string) => string | undefined,
): boolean {
  if (!subscription.enabled || subscription.domain !== event.domain) return false;
  if (!subscription.eventTypes.includes(event.event_type)) return false;
  if (event.domain === 'build') return buildChosen(subscription, event.path ?? '');
  const repositories = eventRepositories(event);
  if (repositories.length === 0) return true;
  const chosen = new Set(subscription.repoKeys.map((key) => key.toLowerCase()));
  const repositoryChosen = repositories.some((key) => {
    const rclass = repositoryClass(key);
    return (
      chosen.has(key.toLowerCase()) ||
      (subscription.anyLocal && rclass === 'local') ||
      (subscription.anyRemote && rclass === 'remote')
    );
  });
  if (!repositoryChosen) return false;
  return acceptsPath(
    subscription.includePatterns.join(','),
    subscription.excludePatterns.join(','),
    event.path ?? '',
  );
}

/**
 * A build event's path is the build's name: it matches any build, a name picked by hand, or
 * an include pattern over names (none means none beyond the picked ones, as JFrog's form
 * reads), and no exclude pattern.
 */
function buildChosen(subscription: Subscription, name: string): boolean {
  const { includePatterns, excludePatterns } = subscription;
  if (excludePatterns.length > 0 && !acceptsPath('**', excludePatterns.join(','), name))
    return false;
  if (subscription.anyBuild || subscription.buildNames.includes(name)) return true;
  return includePatterns.length > 0 && acceptsPath(includePatterns.join(','), '', name);
}

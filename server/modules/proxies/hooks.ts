import { BadRequest, Conflict } from '../../errors.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { PROXY_MESSAGES as M } from './messages.ts';

const sameKey = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What names a proxy: webhook subscriptions and remote repositories, as the message says them. */
async function usersOf(key: string, services: HookServices): Promise<string[]> {
  const subscriptions = (await services.webhooks.subscriptions()).filter(
    (subscription) => subscription.proxy && sameKey(subscription.proxy, key),
  );
  const repositories = (await services.repositories.list({ rclass: 'remote' })).filter(
    (repository) => repository.proxy && sameKey(repository.proxy, key),
  );
  return [
    ...subscriptions.map((subscription) => `webhook '${subscription.key}'`),
    ...repositories.map((repository) => `remote repository '${repository.key}'`),
  ];
}

/**
 * Proxies on the schema engine (docs/proxies.md): one default proxy at a time, and a proxy
 * something names cannot be deleted, so that no connection silently stops going through the
 * proxy an admin chose for it.
 */
export function proxyHooks(services: () => HookServices): EntityHooks {
  return {
    async beforeWrite({ document, previous, keptSecrets }) {
      // Else whoever may edit the proxy could send the password they cannot read to their host.
      const moved =
        previous && (previous.host !== document.host || previous.port !== document.port);
      if (moved && keptSecrets?.includes('password'))
        throw new BadRequest(M.passwordForNewHost, 'password');
      if (document.defaultProxy !== true) return;
      const current = await services().proxies.defaultKey();
      if (current !== undefined && !sameKey(current, String(document.key)))
        throw new Conflict(M.anotherDefault(current), 'defaultProxy');
    },
    afterWrite() {
      services().proxies.forget();
    },
    async onDelete(documents) {
      services().proxies.forget();
      for (const document of documents) {
        const key = String(document.key);
        const users = await usersOf(key, services());
        if (users.length > 0) throw new Conflict(M.inUse(key, users));
      }
    },
  };
}

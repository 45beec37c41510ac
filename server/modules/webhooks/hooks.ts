import { BadRequest } from '../../errors.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { eventTypesOf, isEventDomain } from '../events/domains.ts';
import { WEBHOOK_MESSAGES as M } from './messages.ts';
import type { Subscription } from './subscription.ts';

const DEFAULTS: Partial<Subscription> = { repoKeys: [], eventTypes: [], proxy: '' };
const REPOSITORY_DOMAINS = new Set(['artifact', 'artifact_property', 'docker']);

/** The rules across a subscription's fields that its schema cannot say. */
async function checkSubscription(given: Partial<Subscription>, services: HookServices) {
  // A feature's own create may leave out what the request schema would have defaulted.
  const subscription: Subscription = { ...DEFAULTS, ...given } as Subscription;
  const { domain } = subscription;
  if (isEventDomain(domain)) {
    const known = eventTypesOf(domain);
    const stranger = subscription.eventTypes.find((type) => !known.includes(type));
    if (stranger) throw new BadRequest(M.notAnEventOf(stranger, domain), 'eventTypes');
  }
  if (REPOSITORY_DOMAINS.has(domain)) {
    if (!subscription.anyLocal && !subscription.anyRemote && subscription.repoKeys.length === 0)
      throw new BadRequest(M.noRepositories, 'repoKeys');
    for (const key of subscription.repoKeys)
      if (!(await services.repositories.findRow(key)))
        throw new BadRequest(M.unknownRepository(key), 'repoKeys');
  }
  if (
    domain === 'build' &&
    !subscription.anyBuild &&
    (subscription.buildNames ?? []).length === 0 &&
    (subscription.includePatterns ?? []).length === 0
  )
    throw new BadRequest(M.noBuilds, 'buildNames');
  if (subscription.proxy !== '' && !(await services.proxies.exists(subscription.proxy)))
    throw new BadRequest(M.noProxy(subscription.proxy), 'proxy');
}

/**
 * Webhook subscriptions on the schema engine (docs/webhooks.md): the rules across fields,
 * selecting all builds or bundles drops the ones picked by hand (the form warns so), and
 * saving a paused subscription resumes it.
 */
export function webhookHooks(services: () => HookServices): EntityHooks {
  return {
    async beforeWrite({ document, previous, keptSecrets }) {
      const subscription = document as unknown as Subscription;
      // Else whoever may edit the URL could send the secret they cannot read to themselves.
      if (previous && previous.url !== subscription.url && keptSecrets?.includes('secret'))
        throw new BadRequest(M.secretForNewUrl, 'secret');
      await checkSubscription(subscription, services());
      return {
        ...document,
        ...(subscription.anyBuild ? { buildNames: [] } : {}),
        ...(subscription.anyReleaseBundle ? { releaseBundleNames: [] } : {}),
      };
    },
    async afterWrite({ action, document }) {
      if (action === 'update') await services().webhooks.resume(String(document.key));
    },
  };
}

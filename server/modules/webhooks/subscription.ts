import type { EntityDocument } from '../entities/documents.ts';

/** A subscription as the engine stores it (schemas/entities/webhook.schema.json). */
export interface Subscription {
  key: string;
  description: string;
  enabled: boolean;
  domain: string;
  eventTypes: string[];
  url: string;
  /** Opened (the store keeps it sealed); absent when none is set. */
  secret?: string;
  useSecretForSigning: boolean;
  proxy: string;
  customHeaders: { name: string; value: string }[];
  anyLocal: boolean;
  anyRemote: boolean;
  repoKeys: string[];
  includePatterns: string[];
  excludePatterns: string[];
  anyBuild: boolean;
  buildNames: string[];
  anyReleaseBundle: boolean;
  releaseBundleNames: string[];
}

/** A subscription in the shape of the Event API (`event/api/v1/subscriptions`). */
export interface EventApiSubscription {
  key?: string;
  description?: string;
  enabled?: boolean;
  event_filter: {
    domain: string;
    event_types: string[];
    criteria?: {
      anyLocal?: boolean;
      anyRemote?: boolean;
      anyFederated?: boolean;
      repoKeys?: string[];
      includePatterns?: string[];
      excludePatterns?: string[];
      anyBuild?: boolean;
      selectedBuilds?: string[];
      anyReleaseBundle?: boolean;
      registeredReleaseBundlesNames?: string[];
    };
  };
  handlers: {
    handler_type: 'webhook';
    url: string;
    secret?: string;
    use_secret_for_signing?: boolean;
    proxy?: string;
    custom_http_headers?: { name: string; value: string }[];
  }[];
}

const BUILD_DOMAINS = new Set(['build']);
const BUNDLE_DOMAINS = new Set(['release_bundle', 'artifactory_release_bundle', 'distribution']);

/** The stored document an Event API body describes (the engine's schema checks it next). */
export function fromEventApi(body: EventApiSubscription, key: string): EntityDocument {
  const { event_filter: filter } = body;
  const criteria = filter.criteria ?? {};
  const [handler] = body.handlers;
  const document: EntityDocument = {
    key,
    description: body.description,
    enabled: body.enabled,
    domain: filter.domain,
    eventTypes: filter.event_types,
    url: handler?.url,
    secret: handler?.secret,
    useSecretForSigning: handler?.use_secret_for_signing,
    proxy: handler?.proxy,
    customHeaders: handler?.custom_http_headers,
    anyLocal: criteria.anyLocal,
    anyRemote: criteria.anyRemote,
    repoKeys: criteria.repoKeys,
    includePatterns: criteria.includePatterns,
    excludePatterns: criteria.excludePatterns,
    anyBuild: criteria.anyBuild,
    buildNames: criteria.selectedBuilds,
    anyReleaseBundle: criteria.anyReleaseBundle,
    releaseBundleNames: criteria.registeredReleaseBundlesNames,
  };
  return Object.fromEntries(Object.entries(document).filter(([, value]) => value !== undefined));
}

/** The criteria the Event API shows for a subscription's domain. */
function criteriaOf(subscription: Subscription) {
  const patterns = {
    includePatterns: subscription.includePatterns,
    excludePatterns: subscription.excludePatterns,
  };
  if (BUILD_DOMAINS.has(subscription.domain))
    return {
      anyBuild: subscription.anyBuild,
      selectedBuilds: subscription.buildNames,
      ...patterns,
    };
  if (BUNDLE_DOMAINS.has(subscription.domain))
    return {
      anyReleaseBundle: subscription.anyReleaseBundle,
      registeredReleaseBundlesNames: subscription.releaseBundleNames,
      ...patterns,
    };
  return {
    anyLocal: subscription.anyLocal,
    anyRemote: subscription.anyRemote,
    repoKeys: subscription.repoKeys,
    ...patterns,
  };
}

/** A stored subscription as the Event API answers it; the secret is never answered. */
export function toEventApi(subscription: Subscription) {
  return {
    key: subscription.key,
    description: subscription.description,
    enabled: subscription.enabled,
    event_filter: {
      domain: subscription.domain,
      event_types: subscription.eventTypes,
      criteria: criteriaOf(subscription),
    },
    handlers: [
      {
        handler_type: 'webhook',
        url: subscription.url,
        use_secret_for_signing: subscription.useSecretForSigning,
        proxy: subscription.proxy,
        custom_http_headers: subscription.customHeaders,
      },
    ],
  };
}

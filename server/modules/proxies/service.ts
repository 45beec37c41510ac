import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { CollectionStore } from '../entities/collection-store.ts';
import { deepMerge, documentDefaults, type EntityDocument } from '../entities/documents.ts';
import { listDocuments } from '../entities/queries.ts';
import { openSecrets } from '../entities/secrets.ts';
import { PROXY_MESSAGES } from './messages.ts';

/** The entity id the schema engine keeps proxies under. */
export const PROXY_ENTITY = 'proxy';

/** A proxy as outbound connections use it: the password opened. */
export interface OutboundProxy {
  key: string;
  host: string;
  port: number;
  username: string;
  password: string;
  /** NTLM's workstation name; with `domain`, the proxy is asked with NTLMv2 (docs/proxies.md). */
  ntHost?: string;
  domain?: string;
  defaultProxy: boolean;
  /** Which of Depot's outbound callers go through it as the default proxy. */
  services: OutboundService[];
  redirectedToHosts: string[];
}

/**
 * Depot's outbound HTTP callers a default proxy can serve (its `services`, docs/proxies.md).
 * Mail is not among them: SMTP does not go through an HTTP proxy.
 */
export const OUTBOUND_SERVICES = ['remoteRepositories', 'webhooks', 'licenseBuckets'] as const;
export type OutboundService = (typeof OUTBOUND_SERVICES)[number];

const DEFAULT = { defaultProxy: 'true' };
const DEFAULT_PROXY_TTL_MS = 1000;

/** A named proxy that does not exist (deleted behind a subscription's back, or mistyped). */
export class UnknownProxy extends Error {}

/**
 * Outbound proxies (docs/proxies.md): the engine keeps them; this reads them with their
 * passwords for the connections that go through them.
 */
export function createProxiesService(db: Database, store: () => CollectionStore, box: SecretBox) {
  const opened = (stored: EntityDocument): OutboundProxy => {
    const defaults = documentDefaults(store().entity);
    const proxy = openSecrets(['password'], deepMerge(defaults, stored), box);
    return { password: '', ...proxy } as unknown as OutboundProxy;
  };

  /** The proxies marked default (the hooks keep it to one), stored form. */
  const readDefaults = async () =>
    (await listDocuments(db, PROXY_ENTITY, { offset: 0, descending: false, equals: DEFAULT })).rows;
  // Every webhook run and remote fetch without a proxy of its own asks for the default
  // proxy: kept for a second (this node's writes forget it at once, other nodes' within it).
  let cached: { at: number; rows: ReturnType<typeof readDefaults> } | undefined;
  const defaults = () => {
    if (!cached || Date.now() - cached.at > DEFAULT_PROXY_TTL_MS)
      cached = { at: Date.now(), rows: readDefaults() };
    cached.rows.catch(() => (cached = undefined));
    return cached.rows;
  };

  return {
    /** Forgets the default proxy read last: a proxy was saved or deleted. */
    forget() {
      cached = undefined;
    },

    /** Whether a proxy of this key exists. */
    exists: (key: string) => store().exists(key),

    /** The default proxy's key, if one is marked default. */
    async defaultKey(): Promise<string | undefined> {
      return (await defaults())[0]?.key;
    },

    /**
     * The proxy a connection of `service` goes through: the one named, else the default
     * proxy when its services include `service` (undefined otherwise: a direct connection).
     */
    async resolve(named: string | undefined, service: OutboundService) {
      if (named) {
        if (!(await store().exists(named)))
          throw new UnknownProxy(PROXY_MESSAGES.notConfigured(named));
        return opened(await store().stored(named));
      }
      const [stored] = await defaults();
      const proxy = stored ? opened(stored.document) : undefined;
      return proxy?.services.includes(service) ? proxy : undefined;
    },
  };
}

export type ProxiesService = ReturnType<typeof createProxiesService>;

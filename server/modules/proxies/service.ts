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
  redirectedToHosts: string[];
}

const DEFAULT = { defaultProxy: 'true' };

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
  const defaults = async () =>
    (await listDocuments(db, PROXY_ENTITY, { offset: 0, descending: false, equals: DEFAULT })).rows;

  return {
    /** Whether a proxy of this key exists. */
    exists: (key: string) => store().exists(key),

    /** The default proxy's key, if one is marked default. */
    async defaultKey(): Promise<string | undefined> {
      return (await defaults())[0]?.key;
    },

    /**
     * The proxy a connection goes through: the one named, or with `useDefault` and none
     * named the default one (undefined when there is none: a direct connection).
     */
    async resolve(named: string | undefined, useDefault: boolean) {
      if (named) {
        if (!(await store().exists(named)))
          throw new UnknownProxy(PROXY_MESSAGES.notConfigured(named));
        return opened(await store().stored(named));
      }
      if (!useDefault) return undefined;
      const [stored] = await defaults();
      return stored ? opened(stored.document) : undefined;
    },
  };
}

export type ProxiesService = ReturnType<typeof createProxiesService>;

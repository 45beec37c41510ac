/**
 * A small read-through cache for rows nearly every request needs (credentials,
 * repositories, settings). An entry lives `ttlMs` at most: on a cluster that bounds how
 * long another node's change goes unseen. `clear()` empties it at once, loads in flight
 * included, so their callers get their answer but nobody after them does.
 */
export function createReadCache<K, V>({
  ttlMs,
  maxEntries,
}: {
  ttlMs: number;
  maxEntries: number;
}) {
  interface Entry {
    value: Promise<V>;
    expiresAt: number;
    /** Set once the load succeeded, for `peek`. */
    settled?: { value: V };
  }
  const entries = new Map<K, Entry>();

  return {
    get(key: K, load: () => Promise<V>): Promise<V> {
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now) return cached.value;
      const value = load();
      if (entries.size >= maxEntries) entries.clear();
      const entry: Entry = { value, expiresAt: now + ttlMs };
      entries.set(key, entry);
      value.then(
        (loaded) => (entry.settled = { value: loaded }),
        // A failed load is not remembered: the next caller tries again.
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return value;
    },

    /**
     * The value `get` would answer, when it is loaded and still fresh; undefined otherwise.
     * For callers that must not wait (the download fast path): they take the long way then.
     */
    peek(key: K): V | undefined {
      const cached = entries.get(key);
      return cached && cached.expiresAt > Date.now() ? cached.settled?.value : undefined;
    },

    clear(): void {
      entries.clear();
    },
  };
}

export type ReadCache<K, V> = ReturnType<typeof createReadCache<K, V>>;

/** Cached rows are shared by every caller: freezing them turns a stray write into an error. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

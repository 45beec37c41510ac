import { Pool } from 'undici';
import { guardedLookup } from '../remote/upstream-guard.ts';

/**
 * Keep-alive connection pools to webhook receivers, one per receiver origin and allow list
 * (docs/webhooks.md, "Cost"): a delivery reuses a connection another delivery to the same
 * receiver opened, so the address guard and the DNS lookup run once per new connection, not
 * once per delivery. The guard still sees every connection: each pool connects through the
 * guarded lookup of the allow list it is keyed by, so an admin narrowing the allow list gets
 * new pools, and connections the old list approved are no longer used.
 *
 * undici's Pool rather than node:http: a request costs a fraction of node:http's CPU (no
 * ClientRequest, no per-request agent bookkeeping), and its idle sockets do not keep the
 * process alive.
 */
const pools = new Map<string, Pool>();

/** Receivers with a pool at once; past this the least recently used pool is closed. */
const MAX_POOLS = 256;
/** Connections per receiver: at most this many subscriptions' runs send to it at once. */
const CONNECTIONS_PER_RECEIVER = 32;
/** An idle connection is closed after this (receivers commonly close theirs at 5 s). */
const KEEP_ALIVE_MS = 4000;

/**
 * The pool for `origin`, connecting through the guard with `allowList`. Not pipelined:
 * a webhook POST is not idempotent, and a receiver that drops a pipelined connection would
 * leave it unknown which deliveries arrived.
 */
export function receiverPool(origin: string, allowList: string[], timeoutMs: number): Pool {
  const key = `${origin} ${allowList.join(',')} ${timeoutMs}`;
  const existing = pools.get(key);
  if (existing) {
    // Most recently used last: a Map iterates in insertion order.
    pools.delete(key);
    pools.set(key, existing);
    return existing;
  }
  const pool = new Pool(origin, {
    connections: CONNECTIONS_PER_RECEIVER,
    pipelining: 1,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, lookup: guardedLookup(allowList) as never },
  });
  pools.set(key, pool);
  if (pools.size > MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
    pools.delete(oldestKey);
    // Requests under way finish first.
    void oldest.close().catch(() => undefined);
  }
  return pool;
}

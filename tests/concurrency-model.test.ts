import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRASH_REPO_KEY } from '../server/modules/trash/service.ts';
import { adminAuth, createRepository, startTestDepot } from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';
import {
  applyOp,
  cloneState,
  emptyState,
  orders,
  sameTree,
  type ModelOp,
  type ModelState,
} from './helpers/tree-model.ts';
import { treeOf } from './helpers/tree-invariants.ts';

/**
 * Random interleavings of deploy, delete (into the trash), copy, move, restore, remote cache
 * fills and garbage collection on a small tree whose file and folder names collide on
 * purpose, against a model of what must be true (tests/helpers/tree-model.ts). Operations run
 * a few at a time, together; after each round the trees must be exactly what the model makes
 * of the acknowledged operations in some order, every refusal must be a 4xx that changed
 * nothing, and every file's blob must be on disk. A fixed seed by default, printed with any
 * failure; CONCURRENCY_SEED and CONCURRENCY_OPS choose another run, or a longer one.
 */
const SEED = Number(process.env.CONCURRENCY_SEED ?? 20250730);
const OPERATIONS = Number(process.env.CONCURRENCY_OPS ?? 300);

/** Names of the tree: every path is both a possible file and a possible folder. */
const SEGMENTS = ['a', 'b'];
/** What the upstream has: `r` and `q` are files and folders both. */
const UPSTREAM: Record<string, string> = {
  r: 'upstream r',
  'r/x': 'upstream r/x',
  q: 'upstream q',
  'q/r': 'upstream q/r',
  's/t': 'upstream s/t',
};
const REMOTE_PATHS = [...Object.keys(UPSTREAM), 's', 'absent'];

let depot: TestDepot;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  [depot, upstream] = await Promise.all([startTestDepot(), startScriptedUpstream()]);
  for (const [path, content] of Object.entries(UPSTREAM)) upstream.file(`/${path}`, content);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  await createRepository(depot, 'gen', 'local');
  await createRepository(depot, 'proxy', 'remote', { url: `${upstream.base}/` });
});
afterAll(async () => {
  await depot?.close();
  await upstream?.close();
});

/** mulberry32: a small, fast generator whose runs a seed repeats exactly. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

interface Planned {
  op: ModelOp;
  /** The request, as sent. */
  describe: string;
  send: () => Promise<{ status: number; body: string }>;
}

function planner(rng: ReturnType<typeof random>) {
  let counter = 0;
  const anyPath = () => {
    const depth = 1 + rng.below(3);
    return Array.from({ length: depth }, () => rng.pick(SEGMENTS)).join('/');
  };
  const existingOr = (tree: Map<string, string>, p: number) =>
    tree.size > 0 && rng.chance(p) ? rng.pick([...tree.keys()]) : anyPath();
  const inject = async (method: string, url: string, payload?: string) => {
    const answer = await depot.app.inject({ method, url, headers: adminAuth(), payload });
    return { status: answer.statusCode, body: answer.body };
  };

  return (state: ModelState): Planned => {
    const choice = rng.below(100);
    if (choice < 30) {
      const path = anyPath();
      const content = `content ${counter++} of ${path}`;
      return {
        op: { kind: 'deploy', path, sha: sha256(content) },
        describe: `PUT gen/${path}`,
        send: () => inject('PUT', `/artifactory/gen/${path}`, content),
      };
    }
    if (choice < 45) {
      const path = existingOr(state.gen, 0.8);
      return {
        op: { kind: 'delete', path },
        describe: `DELETE gen/${path}`,
        send: () => inject('DELETE', `/artifactory/gen/${path}`),
      };
    }
    if (choice < 65) {
      const kind = rng.chance(0.5) ? 'copy' : 'move';
      const from = existingOr(state.gen, 0.8);
      const to = anyPath();
      return {
        op: { kind, from, to },
        describe: `${kind} gen/${from} → gen/${to}`,
        send: () => inject('POST', `/artifactory/api/${kind}/gen/${from}?to=/gen/${to}`),
      };
    }
    if (choice < 78) {
      const candidates = [...state.trash.keys()].filter((path) => path.split('/').length > 1);
      const trashPath = candidates.length > 0 ? rng.pick(candidates) : `gen/${anyPath()}`;
      return {
        op: { kind: 'restore', trashPath },
        describe: `restore ${trashPath}`,
        send: () => inject('POST', `/artifactory/api/trash/restore/${trashPath}`),
      };
    }
    if (choice < 93) {
      const path = rng.pick(REMOTE_PATHS);
      const content = UPSTREAM[path];
      return {
        op: { kind: 'fill', path, upstream: content === undefined ? undefined : sha256(content) },
        describe: `GET proxy/${path}`,
        send: async () => {
          const answer = await inject('GET', `/artifactory/proxy/${path}`);
          // A body cut short (the cache refused it while it streamed) acknowledges nothing;
          // a folder's listing is a whole answer too.
          const whole =
            answer.status !== 200 || answer.body === content || answer.body.includes('<html');
          return whole ? answer : { status: 0, body: `cut short: ${answer.body.length} bytes` };
        },
      };
    }
    return {
      op: { kind: 'gc' },
      describe: 'garbage collection',
      send: async () => {
        await depot.services.garbageCollector.collect(0);
        return { status: 200, body: '' };
      },
    };
  };
}

async function observed(): Promise<Pick<ModelState, 'gen' | 'trash' | 'cache'>> {
  const [gen, trash, cache] = await Promise.all([
    treeOf(depot, 'gen'),
    depot.services.artifacts
      .repository(TRASH_REPO_KEY)
      .then(() => treeOf(depot, TRASH_REPO_KEY))
      .catch(() => new Map<string, string>()),
    treeOf(depot, 'proxy'),
  ]);
  return { gen, trash, cache };
}

/** Answers that refuse: nothing may have changed. Anything else (a 5xx) is a failure. */
const REFUSALS = new Set([400, 404, 409]);
const isAcknowledged = (status: number) => status >= 200 && status < 300;

/** The transfer's own account of what it moved, checked against the model's. */
function countsOf(body: string): { files: number; folders: number } | undefined {
  const match = /(\d+) artifacts and (\d+) folders were/.exec(body);
  return match ? { files: Number(match[1]), folders: Number(match[2]) } : undefined;
}

/** An order of the acknowledged operations the model turns into what the server holds. */
function explain(
  before: ModelState,
  done: { planned: Planned; status: number; body: string }[],
  seen: Pick<ModelState, 'gen' | 'trash' | 'cache'>,
): ModelState | undefined {
  const acknowledged = done.filter((d) => isAcknowledged(d.status));
  for (const order of orders(acknowledged)) {
    const state = cloneState(before);
    const fits = order.every(({ planned, body }) => {
      const outcome = applyOp(state, planned.op);
      if (!outcome.ok) return false;
      const counted = countsOf(body);
      return !counted || (counted.files === outcome.files && counted.folders === outcome.folders);
    });
    if (
      fits &&
      sameTree(state.gen, seen.gen) &&
      sameTree(state.trash, seen.trash) &&
      sameTree(state.cache, seen.cache)
    )
      return state;
  }
  return undefined;
}

const show = (tree: Map<string, string>) =>
  [...tree.entries()].map(([p, n]) => `${p}=${n === 'folder' ? 'dir' : n.slice(0, 8)}`).join(' ');

describe('concurrent operations on colliding paths', () => {
  it(`agree with the model for ${OPERATIONS} operations (seed ${SEED})`, async () => {
    const rng = random(SEED);
    const plan = planner(rng);
    let state = emptyState();
    for (let round = 0, sent = 0; sent < OPERATIONS; round++) {
      const planned = Array.from({ length: 2 + rng.below(3) }, () => plan(state));
      sent += planned.length;
      const done = await Promise.all(
        planned.map(async (p) => ({ planned: p, ...(await p.send()) })),
      );
      const where = `seed ${SEED}, round ${round}: ${done
        .map((d) => `${d.planned.describe} → ${d.status} ${d.body.slice(0, 160)}`)
        .join(' | ')}`;
      for (const { status } of done)
        expect(isAcknowledged(status) || REFUSALS.has(status), where).toBe(true);
      const seen = await observed();
      const next = explain(state, done, seen);
      expect(
        next,
        `${where}\nbefore: gen ${show(state.gen)} / trash ${show(state.trash)} / cache ${show(state.cache)}\nafter:  gen ${show(seen.gen)} / trash ${show(seen.trash)} / cache ${show(seen.cache)}`,
      ).toBeDefined();
      state = next!;
      for (const tree of [seen.gen, seen.trash, seen.cache])
        for (const node of tree.values())
          if (node !== 'folder')
            expect(
              existsSync(depot.services.filestore.pathOf(node)),
              `${where}: blob ${node}`,
            ).toBe(true);
    }
    // Every file downloads with the checksum it was acknowledged with.
    for (const [repoKey, tree] of [
      ['gen', state.gen],
      [TRASH_REPO_KEY, state.trash],
      ['proxy', state.cache],
    ] as const)
      for (const [path, node] of tree) {
        if (node === 'folder') continue;
        const answer = await depot.app.inject({
          method: 'GET',
          url: `/artifactory/${repoKey}/${path}`,
          headers: adminAuth(),
        });
        expect(sha256(answer.rawPayload), `seed ${SEED}: ${repoKey}/${path}`).toBe(node);
      }
  }, 600_000);
});

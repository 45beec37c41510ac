/**
 * What must be true of Depot's trees after a sequence of operations, computed from the rules
 * alone (docs/security.md, "Nothing acknowledged is lost"): the concurrency suite runs
 * operations together, then looks for an order of the acknowledged ones that this model
 * turns into exactly the trees the server holds.
 */

/** A node: a file's SHA-256, or 'folder'. */
export type Node = string;
export const FOLDER = 'folder';

export interface ModelState {
  /** The local repository the operations work in: path → node. */
  gen: Map<string, Node>;
  /** The trash can, paths `gen/{path}`. */
  trash: Map<string, Node>;
  /** Items of the trash set aside (`f~1`): where they were deleted from. */
  deletedFrom: Map<string, string>;
  /** The remote repository's cache. */
  cache: Map<string, Node>;
}

export type ModelOp =
  | { kind: 'deploy'; path: string; sha: string }
  | { kind: 'delete'; path: string }
  | { kind: 'copy' | 'move'; from: string; to: string }
  | { kind: 'restore'; trashPath: string }
  | { kind: 'fill'; path: string; upstream: string | undefined }
  | { kind: 'gc' };

/** What an operation does in the model: refused, or done (with what a transfer counts). */
export type ModelOutcome = { ok: false } | { ok: true; files?: number; folders?: number };

class Refused extends Error {}

export const emptyState = (): ModelState => ({
  gen: new Map(),
  trash: new Map(),
  deletedFrom: new Map(),
  cache: new Map(),
});

export const cloneState = (state: ModelState): ModelState => ({
  gen: new Map(state.gen),
  trash: new Map(state.trash),
  deletedFrom: new Map(state.deletedFrom),
  cache: new Map(state.cache),
});

export function ancestorsOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const isWithin = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/** A node and everything below it, in path order. */
function subtree(tree: Map<string, Node>, root: string): [string, Node][] {
  return [...tree.entries()].filter(([path]) => isWithin(path, root)).sort(byPath);
}
const byPath = ([a]: [string, Node], [b]: [string, Node]) => (a < b ? -1 : a > b ? 1 : 0);

function placeFolder(tree: Map<string, Node>, path: string) {
  for (const folder of [...ancestorsOf(path), path]) {
    const node = tree.get(folder);
    if (node !== undefined && node !== FOLDER) throw new Refused();
    tree.set(folder, FOLDER);
  }
}

function placeFile(tree: Map<string, Node>, path: string, sha: string) {
  for (const folder of ancestorsOf(path)) {
    const node = tree.get(folder);
    if (node !== undefined && node !== FOLDER) throw new Refused();
    tree.set(folder, FOLDER);
  }
  if (tree.get(path) === FOLDER) throw new Refused();
  tree.set(path, sha);
}

/** Puts items (a subtree, renamed) into a tree, as a transfer does. */
function land(tree: Map<string, Node>, items: [string, Node][]) {
  const parent = items[0] && parentOf(items[0][0]);
  if (parent) placeFolder(tree, parent);
  for (const [path, node] of items) {
    if (node === FOLDER) placeFolder(tree, path);
    else placeFile(tree, path, node);
  }
}

/** An earlier deletion at `root` (or a file above it) is renamed to `{name}~{n}`. */
function setAsideEarlierDeletion(state: ModelState, root: string) {
  for (const path of [...ancestorsOf(root), root]) {
    const node = state.trash.get(path);
    if (node === undefined || (path !== root && node === FOLDER)) continue;
    const parent = parentOf(path);
    const name = nameOf(path);
    let highest = 0;
    for (const sibling of state.trash.keys()) {
      if (parentOf(sibling) !== parent || !nameOf(sibling).startsWith(`${name}~`)) continue;
      const n = /^~(\d+)$/.exec(nameOf(sibling).slice(name.length))?.[1];
      highest = Math.max(highest, Number(n ?? 0));
    }
    const aside = `${parent ? `${parent}/` : ''}${name}~${highest + 1}`;
    for (const [from, moved] of subtree(state.trash, path)) {
      state.trash.delete(from);
      state.trash.set(aside + from.slice(path.length), moved);
      const origin = state.deletedFrom.get(from);
      if (origin !== undefined) {
        state.deletedFrom.delete(from);
        state.deletedFrom.set(aside + from.slice(path.length), origin);
      }
    }
    if (!state.deletedFrom.has(aside)) state.deletedFrom.set(aside, path);
  }
}

/** Where a restore without a target puts a trash item. */
function restoreTarget(state: ModelState, trashPath: string): string {
  for (const path of [...ancestorsOf(trashPath), trashPath].reverse()) {
    const origin = state.deletedFrom.get(path);
    if (origin !== undefined) return origin + trashPath.slice(path.length);
  }
  return trashPath;
}

function removeAll(tree: Map<string, Node>, paths: string[], state?: ModelState) {
  for (const path of paths) {
    tree.delete(path);
    state?.deletedFrom.delete(path);
  }
}

/** Applies an operation to `state` (changed in place only when it succeeds). */
export function applyOp(state: ModelState, op: ModelOp): ModelOutcome {
  const next = cloneState(state);
  try {
    const outcome = applyTo(next, op);
    Object.assign(state, next);
    return outcome;
  } catch (error) {
    if (error instanceof Refused) return { ok: false };
    throw error;
  }
}

function applyTo(state: ModelState, op: ModelOp): ModelOutcome {
  switch (op.kind) {
    case 'deploy':
      placeFile(state.gen, op.path, op.sha);
      return { ok: true };
    case 'delete': {
      const items = subtree(state.gen, op.path);
      if (items.length === 0) throw new Refused();
      const root = `gen/${op.path}`;
      setAsideEarlierDeletion(state, root);
      land(
        state.trash,
        items.map(([path, node]) => [root + path.slice(op.path.length), node]),
      );
      removeAll(
        state.gen,
        items.map(([path]) => path),
      );
      return { ok: true };
    }
    case 'copy':
    case 'move': {
      const items = subtree(state.gen, op.from);
      if (items.length === 0) throw new Refused();
      if (isWithin(op.to, op.from) || op.from.startsWith(`${op.to}/`)) throw new Refused();
      land(
        state.gen,
        items.map(([path, node]) => [op.to + path.slice(op.from.length), node]),
      );
      if (op.kind === 'move')
        removeAll(
          state.gen,
          items.map(([path]) => path),
        );
      const files = items.filter(([, node]) => node !== FOLDER).length;
      return { ok: true, files, folders: items.length - files };
    }
    case 'restore': {
      const items = subtree(state.trash, op.trashPath);
      if (items.length === 0) throw new Refused();
      const [repoKey, ...rest] = restoreTarget(state, op.trashPath).split('/');
      if (repoKey !== 'gen' || rest.length === 0) throw new Refused();
      const to = rest.join('/');
      const landing: [string, Node][] = items.map(([path, node]) => [
        to + path.slice(op.trashPath.length),
        node,
      ]);
      // Never over a file that is there now.
      for (const [path, node] of landing) {
        const there = state.gen.get(path);
        if (node !== FOLDER && there !== undefined && there !== FOLDER) throw new Refused();
      }
      land(state.gen, landing);
      removeAll(
        state.trash,
        items.map(([path]) => path),
        state,
      );
      return { ok: true };
    }
    case 'fill': {
      if (state.cache.has(op.path)) return { ok: true };
      if (op.upstream === undefined) throw new Refused();
      placeFile(state.cache, op.path, op.upstream);
      return { ok: true };
    }
    case 'gc':
      return { ok: true };
  }
}

/** Whether two trees hold the same nodes. */
export function sameTree(a: Map<string, Node>, b: Map<string, Node>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, node] of a) if (b.get(path) !== node) return false;
  return true;
}

/** Every order of a few items. */
export function* orders<T>(items: T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const order of orders(rest)) yield [items[i]!, ...order];
  }
}

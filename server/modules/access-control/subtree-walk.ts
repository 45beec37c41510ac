import type { Database } from '../../db/database.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessDecider, NodeKind, RepoAction } from './decider.ts';
import { subtreePage } from './queries.ts';
import { denied, deniedBelow } from './refusals.ts';

/** Rows read per query while walking a tree: a million-file folder is never held at once. */
export const WALK_PAGE = 1000;

/** A node as the walker sees it. */
export interface WalkedNode {
  path: string;
  folder: boolean;
}

/** One permission an item needs: an action on a node, the item itself or where it lands. */
export interface Need {
  action: RepoAction;
  repoKey: string;
  path: string;
  kind: NodeKind;
  /** The word a refusal naming this node uses, when not the action's own ('overwrite'). */
  verb?: string;
  /**
   * The caller knows this path whether or not it may read it: it named it (an archive's
   * entry) or it is built from names it may read (where a copy lands). A refusal may name it.
   */
  known?: boolean;
}

/** How an operation on many items is judged. */
export interface WalkRule<T> {
  /**
   * What the request named, and the operation's word: a refusal because of an item the
   * caller may not read names this instead ("may not delete everything in ...").
   */
  named: { repoKey: string; path: string; action: string };
  /** What the caller must be allowed for one item. */
  needs: (item: T) => readonly Need[];
}

/**
 * The one check of every operation that acts on more than the item its request names (a
 * folder and what is below it, a recursive flag, a list, content found by checksum):
 * docs/access-control.md, "Operations on many items". A change happens whole or not at all,
 * so the walker throws at the first item the caller lacks an action on, before anything is
 * written; a read keeps what the caller may read and leaves the rest out. Built per request
 * by `services.access.walker(principal)`.
 */
export interface ItemWalker {
  readonly access: AccessDecider;
  readonly principal: Principal;
  /** Throws the refusal at the first item whose needs the caller lacks. */
  check<T>(items: Iterable<T>, rule: WalkRule<T>): void;
  /** `check` over batches read one after another (pages of a query). */
  checkAll<T>(batches: AsyncIterable<readonly T[]>, rule: WalkRule<T>): Promise<void>;
  /**
   * Throws unless the caller may do `action` on the node at `path` of a repository and on
   * every node below it ('' is the whole repository), read a page at a time through `db`
   * (a transaction, so that what is checked is what the transaction then changes).
   */
  requireSubtree(
    action: RepoAction,
    repo: { id: number; key: string },
    path: string,
    db?: Database,
  ): Promise<void>;
  /**
   * Throws unless the caller may do `action` on a repository as a whole, as on an item (its
   * own properties, a change that starts at its root): a grant covers that only when its
   * patterns cover the root itself (`**`), not when they merely lead somewhere inside.
   */
  requireRepository(action: RepoAction, repoKey: string): void;
  /** The items the caller may read: a read of many items leaves the others out, silently. */
  readable<T extends { repoKey: string; path: string; folder?: boolean }>(items: Iterable<T>): T[];
  /** The first item of the batches the caller may read, or undefined when there is none. */
  firstReadable<T extends { repoKey: string; path: string }>(
    batches: AsyncIterable<readonly T[]>,
  ): Promise<T | undefined>;
}

/** The pages of the nodes at and below `path` of a repository, in path order. */
export async function* subtreePages(
  db: Database,
  repositoryId: number,
  path: string,
): AsyncGenerator<WalkedNode[]> {
  for (let after: string | undefined; ;) {
    const page = await subtreePage(db, repositoryId, path, after, WALK_PAGE);
    if (page.length > 0) yield page;
    if (page.length < WALK_PAGE) return;
    after = page.at(-1)!.path;
  }
}

export function createItemWalker(
  db: Database,
  access: AccessDecider,
  principal: Principal,
): ItemWalker {
  function refusal<T>(need: Need, rule: WalkRule<T>) {
    const { named } = rule;
    // A repository's root is read as the folder it is, whatever an action needed of it.
    const readKind = need.path === '' ? 'folder' : need.kind;
    const readable = access.can('read', need.repoKey, need.path, readKind);
    const isNamed = need.repoKey === named.repoKey && need.path === named.path;
    if (readable || need.known || isNamed)
      return denied(principal, need.verb ?? need.action, need.repoKey, need.path, readable);
    const namedReadable = access.can('read', named.repoKey, named.path, 'folder');
    return deniedBelow(principal, named.action, named.repoKey, named.path, namedReadable);
  }

  function check<T>(items: Iterable<T>, rule: WalkRule<T>) {
    if (access.admin) return;
    for (const item of items) {
      for (const need of rule.needs(item)) {
        if (!access.can(need.action, need.repoKey, need.path, need.kind)) throw refusal(need, rule);
      }
    }
  }

  async function checkAll<T>(batches: AsyncIterable<readonly T[]>, rule: WalkRule<T>) {
    for await (const batch of batches) check(batch, rule);
  }

  function requireRepository(action: RepoAction, repoKey: string) {
    // Judged as an item, not as a folder on the way to one: only a grant whose patterns
    // cover the root itself (`**`) covers the repository as a whole.
    const named = { repoKey, path: '', action };
    check([''], { named, needs: () => [{ action, repoKey, path: '', kind: 'file' }] });
  }

  return {
    access,
    principal,
    check,
    checkAll,
    requireRepository,

    async requireSubtree(action, repo, path, executor = db) {
      // Administrators may do everything: their walk would read a tree for nothing.
      if (access.admin) return;
      const named = { repoKey: repo.key, path, action };
      const needs = (node: WalkedNode): Need[] => [
        { action, repoKey: repo.key, path: node.path, kind: node.folder ? 'folder' : 'file' },
      ];
      if (path === '') requireRepository(action, repo.key);
      await checkAll(subtreePages(executor, repo.id, path), { named, needs });
    },

    readable(items) {
      const all = [...items];
      if (access.admin) return all;
      return all.filter((item) =>
        access.can('read', item.repoKey, item.path, item.folder ? 'folder' : 'file'),
      );
    },

    async firstReadable(batches) {
      for await (const batch of batches) {
        const found = batch.find((item) => access.can('read', item.repoKey, item.path, 'file'));
        if (found) return found;
      }
      return undefined;
    },
  };
}

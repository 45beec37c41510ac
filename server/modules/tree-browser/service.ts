import type { Database } from '../../db/database.ts';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import type { AccessDecider } from '../access-control/decider.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import type { Watcher, WatchesService } from '../watches/service.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { inProjectContext } from '../projects/context.ts';
import { decodeContinueState, encodeContinueState } from './continue-state.ts';
import { locateNode } from './locate-node.ts';
import { TREE_MESSAGES } from './messages.ts';
import { nodeTabsAndActions, type TabsAndActions } from './node-actions.ts';
import { withTabFacts } from './node-tabs.ts';
import { childrenPage, firstChildren, type ChildCursor, type ChildRow } from './queries.ts';

/** A row of the tree, as the console's tree browser shows it (spec 02 §3, Tree node). */
export interface TreeNode {
  type: 'repository' | 'folder' | 'file';
  /** What the row shows: a key, a name, or a compacted folder's 'a/b/c'. */
  text: string;
  repoKey: string;
  /** The path inside the repository; '' for a repository. */
  path: string;
  repoType: 'local' | 'remote' | 'virtual';
  repoPkgType: string;
  hasChild: boolean;
  /** A folder shown merged with the single folders below it. */
  compacted?: boolean;
  /** The trash can and everything in it. */
  trash?: boolean;
  /** A file of a remote repository's cache. */
  cached?: boolean;
  size?: number;
  mimeType?: string;
  lastModified?: string;
  /** Where the file downloads from, below /artifactory/. */
  downloadPath?: string;
}

export interface RootsQuery {
  /**
   * The project context: its own and shared repositories only. The trash can, which holds
   * every repository's deletions, shows in the default context only.
   */
  projectKey?: string;
  packageTypes?: string[];
  repositoryTypes?: string[];
  repositoryKeys?: string[];
  sortBy?: 'repoType' | 'repoKey';
  mustInclude?: string;
  continueState?: string;
}

export interface ChildrenQuery {
  repoKey: string;
  path: string;
  compacted: boolean;
  continueState?: string;
  limit?: number;
}

export interface TreePage {
  data: TreeNode[];
  /** Present while more follow: send it back for the next page. */
  continueState?: string;
}

export const TREE_LIMITS = { rootsPage: 200, childrenPage: 1000, maxChildrenPage: 5000 };
/** The trash can's name in the tree (spec 02 §3). */
export const TRASH_CAN_TEXT = 'Trash Can';

const KIND_ORDER = { local: 0, remote: 1, virtual: 2 } as const;

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;
type RootsState = { offset: number; skip?: string };

const isRootsState = (state: unknown): boolean =>
  typeof (state as RootsState)?.offset === 'number' && (state as RootsState).offset >= 0;
const isChildCursor = (state: unknown): boolean =>
  typeof (state as ChildCursor)?.folder === 'boolean' &&
  typeof (state as ChildCursor)?.after === 'string';

function repositoryNode(repo: { key: string; rclass: string; packageType: string }): TreeNode {
  const trash = repo.key === TRASH_REPO_KEY;
  return {
    type: 'repository',
    text: trash ? TRASH_CAN_TEXT : repo.key,
    repoKey: repo.key,
    path: '',
    repoType: repo.rclass as TreeNode['repoType'],
    repoPkgType: repo.packageType,
    hasChild: true,
    ...(trash ? { trash: true } : {}),
  };
}

/**
 * The tree browser's data: the repositories at its root, a page at a time, and a folder's
 * children, a page at a time from the index (never the whole folder). Compacted, a folder
 * whose only child is a folder shows as one row ('org/apache/commons').
 */
export function createTreeBrowserService(
  db: Database,
  repositories: RepositoriesService,
  artifacts: ArtifactsService,
  watches: WatchesService,
) {
  async function roots(query: RootsQuery, access: AccessDecider): Promise<TreePage> {
    // An empty list is no filter: the console sends its filters as lists, empty when unset.
    const wanted = (list?: string[]) =>
      list?.length ? new Set(list.map((v) => v.toLowerCase())) : undefined;
    const [types, kinds, keys] = [
      wanted(query.packageTypes),
      wanted(query.repositoryTypes),
      wanted(query.repositoryKeys),
    ];
    const inContext = inProjectContext(query.projectKey);
    const all = (await repositories.list()).filter(
      (repo) =>
        inContext(repo) &&
        (!types || types.has(repo.packageType)) &&
        (!kinds || kinds.has(repo.rclass)) &&
        (!keys || keys.has(repo.key.toLowerCase())) &&
        access.can('read', repo.key, '', 'folder'),
    );
    const byKey = (a: { key: string }, b: { key: string }) =>
      a.key.toLowerCase().localeCompare(b.key.toLowerCase());
    // The trash can comes last, whatever the order; the console shows it as its own tree.
    const ordered = all.sort((a, b) => {
      const trash = Number(a.key === TRASH_REPO_KEY) - Number(b.key === TRASH_REPO_KEY);
      if (trash !== 0 || query.sortBy === 'repoKey') return trash || byKey(a, b);
      return KIND_ORDER[a.rclass] - KIND_ORDER[b.rclass] || byKey(a, b);
    });
    const state: RootsState = query.continueState
      ? decodeContinueState(query.continueState, isRootsState)
      : { offset: 0 };
    let page = ordered.slice(state.offset, state.offset + TREE_LIMITS.rootsPage);
    // A deep link's repository is in the first page wherever it sorts; later pages skip it.
    let skip = state.skip;
    const must = query.mustInclude?.toLowerCase();
    if (state.offset === 0 && must && !page.some((r) => r.key.toLowerCase() === must)) {
      const found = ordered.find((r) => r.key.toLowerCase() === must);
      if (found) {
        page = [...page, found];
        skip = found.key;
      }
    } else if (skip) {
      page = page.filter((r) => r.key !== skip);
    }
    const next = state.offset + TREE_LIMITS.rootsPage;
    return {
      data: page.map(repositoryNode),
      ...(next < ordered.length
        ? { continueState: encodeContinueState({ offset: next, skip }) }
        : {}),
    };
  }

  async function children(query: ChildrenQuery, access: AccessDecider): Promise<TreePage> {
    const repo = await artifacts.repository(query.repoKey);
    const limit = Math.min(query.limit ?? TREE_LIMITS.childrenPage, TREE_LIMITS.maxChildrenPage);
    const cursor = query.continueState
      ? decodeContinueState<ChildCursor>(query.continueState, isChildCursor)
      : undefined;
    const sources = (await artifacts.readOrder(repo, query.path)).filter((source) =>
      access.can('read', source.key, query.path, 'folder'),
    );
    if (sources.length === 0) throw new Forbidden(TREE_MESSAGES.notReadable(repo.key, query.path));
    if (query.path !== '') await assertFolder(sources, repo.key, query.path);
    const rows = await readablePage(sources, query.path, cursor, limit, access);
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    // Compaction and emptiness are read from the repository itself; a virtual one merges.
    const single = sources.length === 1 ? sources[0] : undefined;
    const nodes = shown.map(({ row }) => childNode(repo, row, single?.rclass === 'remote'));
    if (single) await describeFolders(single, nodes, query.compacted);
    const last = shown.at(-1)?.row;
    return {
      data: nodes,
      ...(more && last
        ? { continueState: encodeContinueState({ folder: last.folder, after: last.name }) }
        : {}),
    };
  }

  /**
   * Up to `limit + 1` children the caller may read: pages are read from the index and
   * filtered until enough are found or none are left, so a page is never short while more
   * readable children exist.
   */
  async function readablePage(
    sources: RepositoryRow[],
    path: string,
    cursor: ChildCursor | undefined,
    limit: number,
    access: AccessDecider,
  ) {
    if (access.admin) return mergedPage(sources, path, cursor, limit);
    const readable: Awaited<ReturnType<typeof mergedPage>> = [];
    let after = cursor;
    for (;;) {
      const rows = await mergedPage(sources, path, after, limit);
      for (const entry of rows) {
        const { row, source } = entry;
        if (access.can('read', source.key, row.path, row.folder ? 'folder' : 'file'))
          readable.push(entry);
      }
      const last = rows.at(-1)?.row;
      if (rows.length <= limit || readable.length > limit || !last) return readable;
      after = { folder: last.folder, after: last.name };
    }
  }

  /** Each source's page, merged by (folders first, name); a virtual's first member wins. */
  async function mergedPage(
    sources: RepositoryRow[],
    path: string,
    cursor: ChildCursor | undefined,
    limit: number,
  ) {
    const pages = await Promise.all(
      sources.map(async (source) =>
        (await childrenPage(db, source.id, path, cursor, limit)).map((row) => ({ row, source })),
      ),
    );
    // One source's page comes in index order already; only a merge needs sorting.
    if (pages.length === 1) return pages[0]!;
    const seen = new Set<string>();
    return pages
      .flat()
      .sort(
        (a, b) => Number(b.row.folder) - Number(a.row.folder) || compare(a.row.name, b.row.name),
      )
      .filter(({ row }) => !seen.has(row.name) && seen.add(row.name));
  }

  /** Children are asked of folders: a missing path is a 404, a file a 400. */
  async function assertFolder(sources: RepositoryRow[], repoKey: string, path: string) {
    let file = false;
    for (const source of sources) {
      // Read only to answer: the download path's short-lived copy serves (a write clears it).
      const node = await artifacts.findNodeForDownload(source.id, path);
      if (node?.folder) return;
      file ||= node !== undefined;
    }
    if (file) throw new BadRequest(TREE_MESSAGES.notAFolder(repoKey, path));
    throw new NotFound(TREE_MESSAGES.notFound(repoKey, path));
  }

  /** Marks empty folders and, compacted, merges chains of single folders into one row. */
  async function describeFolders(source: RepositoryRow, nodes: TreeNode[], compacted: boolean) {
    let open = nodes.filter((node) => node.type === 'folder');
    while (open.length > 0) {
      const firstOf = await firstChildren(
        db,
        source.id,
        open.map((node) => node.path),
      );
      const chained: TreeNode[] = [];
      for (const node of open) {
        const inside = firstOf.get(node.path) ?? [];
        node.hasChild = inside.length > 0;
        if (compacted && inside.length === 1 && inside[0]!.folder) {
          node.path = `${node.path}/${inside[0]!.name}`;
          node.text = `${node.text}/${inside[0]!.name}`;
          node.compacted = true;
          chained.push(node);
        }
      }
      open = chained;
    }
  }

  /**
   * What a node's details show and its menu offers this caller: `mayWrite` unlocks the writing
   * actions, `seesPermissions` the Effective Permissions tab, and a signed-in user gets watch
   * or unwatch, whichever applies.
   */
  async function tabsAndActions(
    repoKey: string,
    path: string,
    caller: {
      access: AccessDecider;
      seesPermissions: boolean;
      user: Watcher;
      trashOn: boolean;
      /** Whether a build the caller may read lists the file's content: the Builds tab. */
      listedByBuilds?: (repoKey: string, path: string) => Promise<boolean>;
    },
  ): Promise<TabsAndActions> {
    const { access } = caller;
    // Refused before the lookup: a caller who may read the path neither as a file nor as a
    // folder learns nothing of whether it is there.
    const unreadable = (kind: 'file' | 'folder') => !access.can('read', repoKey, path, kind);
    if (path !== '' && unreadable('file') && unreadable('folder'))
      throw new Forbidden(TREE_MESSAGES.notReadable(repoKey, path));
    const node = await withTabFacts(artifacts, await locateNode(artifacts, repoKey, path));
    const kind = node.type === 'file' ? 'file' : 'folder';
    if (!access.can('read', node.repo.key, node.path, kind))
      throw new Forbidden(TREE_MESSAGES.notReadable(node.repo.key, node.path));
    if (kind === 'file' && caller.listedByBuilds)
      node.hasBuilds = await caller.listedByBuilds(node.repo.key, node.path);
    const watching = caller.user.anonymous
      ? undefined
      : await watches.isWatching(node.repo.id, node.path, caller.user.name);
    return nodeTabsAndActions(node, {
      admin: access.admin,
      may: (action) => access.can(action, node.repo.key, node.path, kind),
      deploysSomewhere: access.deploysSomewhere,
      seesPermissions: caller.seesPermissions,
      watching,
      trashOn: caller.trashOn,
    });
  }

  return { roots, children, tabsAndActions };
}

/** Name order as the index gives it (collation "C"): by UTF-8 bytes. */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function childNode(repo: RepositoryRow, row: ChildRow, cached: boolean): TreeNode {
  const base = {
    text: row.name,
    repoKey: repo.key,
    path: row.path,
    repoType: repo.rclass as TreeNode['repoType'],
    repoPkgType: repo.package_type,
    ...(repo.key === TRASH_REPO_KEY ? { trash: true } : {}),
  };
  if (row.folder) return { ...base, type: 'folder', hasChild: true };
  return {
    ...base,
    type: 'file',
    hasChild: false,
    size: Number(row.size),
    mimeType: row.mime_type ?? 'application/octet-stream',
    lastModified: new Date(row.modified_at).toISOString(),
    downloadPath: `${repo.key}/${row.path}`,
    ...(cached ? { cached: true } : {}),
  };
}

export type TreeBrowserService = ReturnType<typeof createTreeBrowserService>;

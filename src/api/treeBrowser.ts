import type { VersionEntry } from '../../server/modules/artifact-actions/delete-versions.ts';
// The server's own types for what it answers: one definition, checked on both sides.
import type { ArchiveEntry } from '../../server/modules/archive-view/archive-entries.ts';
import type { ArchiveSource } from '../../server/modules/archive-view/service.ts';
import type { BuildTool } from '../../server/modules/artifact-general/dependency-declaration.ts';
import type { ArtifactGeneral } from '../../server/modules/artifact-general/general-info.ts';
import type { ArtifactsCount } from '../../server/modules/artifact-general/service.ts';
import type { ArtifactProperty } from '../../server/modules/artifact-properties/service.ts';
import type { ArtifactBuilds } from '../../server/modules/builds/artifact-builds.ts';
import type {
  EffectivePermission,
  EffectivePermissionsPage,
} from '../../server/modules/effective-permissions/service.ts';
import type { FileView } from '../../server/modules/file-views/view-rules.ts';
import type { PropertySet } from '../../server/modules/property-sets/hooks.ts';
import type { TabsAndActions } from '../../server/modules/tree-browser/node-actions.ts';
import type { RootsQuery, TreeNode, TreePage } from '../../server/modules/tree-browser/service.ts';
import type { WatchStatus } from '../../server/modules/watches/service.ts';
import { call } from './client';

/** The tree's data (server/modules/tree-browser, docs/tree-browser.md). */
export type {
  ArchiveEntry,
  ArchiveSource,
  ArtifactGeneral,
  ArtifactProperty,
  ArtifactsCount,
  BuildTool,
  EffectivePermission,
  EffectivePermissionsPage,
  FileView,
  PropertySet,
  TabsAndActions,
  TreeNode,
  TreePage,
};
export type Watcher = WatchStatus['watchers'][number];
export type TreeSortBy = NonNullable<RootsQuery['sortBy']>;

export interface TreeFilters {
  packageTypes: string[];
  repositoryTypes: string[];
}

export interface RootsRequest extends TreeFilters {
  sortBy: TreeSortBy;
  /** The project context: the project's own and shared repositories only. */
  projectKey?: string;
  /** Only these repositories (the favorites filter); absent for all. */
  repositoryKeys?: string[];
  mustInclude?: string;
  continueState?: string;
}

export interface ChildrenRequest {
  repoKey: string;
  path: string;
  continueState?: string;
  limit?: number;
}

const TREE = '/ui/treebrowser';
const compactedQuery = (compacted: boolean) => (compacted ? '?compacted=true' : '');

export const treeBrowserApi = {
  /** Local repositories by key, the trash can left out: where things can be put. */
  localRepositories: async () => {
    const page = await call<TreePage>('POST', TREE, {
      json: { type: 'root', repositoryTypes: ['local'], sortBy: 'repoKey' },
    });
    return page.data.filter((node) => !node.trash);
  },
  /** Every repository the caller may read, by key, paged to the end (the trash can left out). */
  readableRepositoryKeys: async (projectKey?: string) => {
    const keys: string[] = [];
    let continueState: string | undefined;
    do {
      const page: TreePage = await call<TreePage>('POST', TREE, {
        json: { type: 'root', sortBy: 'repoKey', projectKey, continueState },
      });
      keys.push(...page.data.filter((node) => !node.trash).map((node) => node.repoKey));
      continueState = page.continueState;
    } while (continueState);
    return keys;
  },
  roots: (request: RootsRequest) =>
    call<TreePage>('POST', TREE, { json: { type: 'root', ...request } }),
  children: (request: ChildrenRequest, compacted: boolean) =>
    call<TreePage>('POST', `${TREE}${compactedQuery(compacted)}`, {
      json: { type: 'junction', ...request },
    }),
  tabsAndActions: (
    node: Pick<TreeNode, 'type' | 'repoKey' | 'path' | 'repoType' | 'repoPkgType'>,
  ) =>
    call<TabsAndActions>('POST', `${TREE}/tabsAndActions`, {
      json: {
        type: node.type,
        repoKey: node.repoKey,
        path: node.path,
        repoType: node.repoType,
        repoPkgType: node.repoPkgType,
      },
    }),
  general: (node: Pick<TreeNode, 'type' | 'repoKey' | 'path'>) =>
    call<ArtifactGeneral>('POST', '/ui/artifactgeneral', {
      json: { type: node.type, repoKey: node.repoKey, path: node.path },
    }),
  artifactsCount: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<ArtifactsCount>('POST', '/ui/artifactgeneral/artifactsCount', {
      json: { repoKey: node.repoKey, path: node.path },
    }),
  /** Reads the file again and completes its checksums (spec 02 §7 /ui/checksums/fix). */
  fixChecksums: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<{ info: string }>('POST', '/ui/checksums/fix', {
      json: { repoKey: node.repoKey, path: node.path },
    }),
};

/** Copy, move and restore (spec 02 §3 Action payloads); a trailing '/' puts the node into a folder. */
export interface TransferRequest {
  repoKey: string;
  path: string;
  targetRepoKey: string;
  targetPath: string;
  dryRun: boolean;
}
export interface FolderDownloadInfo {
  sizeMB: number;
  totalFiles: number;
}
type Info = { info: string };
export type { VersionEntry };
const ACTIONS = '/ui/artifactactions';

/** The node actions' calls (server/modules/artifact-actions, server/modules/archives). */
export const artifactActionsApi = {
  transfer: (action: 'copy' | 'move' | 'restore', request: TransferRequest) =>
    call<Info>('POST', `${ACTIONS}/${action}`, { json: request }),
  delete: (request: { repoKey: string; path: string; permDelete: boolean }) =>
    call<Info>('POST', `${ACTIONS}/delete`, { json: request }),
  emptyTrash: () => call<Info>('POST', `${ACTIONS}/emptytrash`),
  zap: (action: 'zap' | 'zapVirtual', node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<Info>('POST', `${ACTIONS}/${action}`, {
      json: { repoKey: node.repoKey, path: node.path },
    }),
  /** The versions below a folder of a Maven-layout repository (the Delete Versions dialog). */
  versions: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<{ versions: VersionEntry[] }>('GET', `${ACTIONS}/deleteversions`, {
      searchParams: { repoKey: node.repoKey, path: node.path },
    }),
  deleteVersions: (
    node: Pick<TreeNode, 'repoKey' | 'path'>,
    versions: Pick<VersionEntry, 'groupId' | 'version'>[],
  ) =>
    call<Info>('POST', `${ACTIONS}/deleteversions`, {
      json: { repoKey: node.repoKey, path: node.path, versions },
    }),
  /** Reads every file of a local repository into its format's index again (admins). */
  calculateIndex: (node: Pick<TreeNode, 'repoKey' | 'repoPkgType'>) =>
    call<Info>('POST', `${ACTIONS}/calculateIndex`, {
      json: { repoKey: node.repoKey, type: node.repoPkgType },
    }),
  /** The View action's code view: a text file's content, as text (spec 02 §4, §7). */
  view: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<{ fileContent: string }>('POST', `${ACTIONS}/view`, {
      json: { repoKey: node.repoKey, path: node.path },
    }),
  downloadFolderInfo: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<FolderDownloadInfo>('GET', `${ACTIONS}/downloadfolderinfo`, {
      searchParams: { repoKey: node.repoKey, path: node.path },
    }),
};

/** The archive formats a folder downloads as (the server also takes `tgz`, a `tar.gz`). */
export const FOLDER_ARCHIVE_TYPES = ['zip', 'tar', 'tar.gz'] as const;
export type FolderArchiveType = (typeof FOLDER_ARCHIVE_TYPES)[number];

/** What a person chooses in the Download Folder dialog. */
export interface FolderDownloadOptions {
  archiveType: FolderArchiveType;
  /** `.sha1`, `.sha256` and `.md5` entries beside each file. */
  includeChecksumFiles: boolean;
}

export const DEFAULT_FOLDER_DOWNLOAD: FolderDownloadOptions = {
  archiveType: 'zip',
  includeChecksumFiles: false,
};

/** Where the console downloads a folder from, in the archive format chosen. */
export const folderDownloadHref = (
  node: Pick<TreeNode, 'repoKey' | 'path'>,
  options: FolderDownloadOptions = DEFAULT_FOLDER_DOWNLOAD,
) =>
  `/ui/api/v1/ui/artifactactions/downloadfolder?${new URLSearchParams({
    repoKey: node.repoKey,
    path: node.path,
    archiveType: options.archiveType,
    includeChecksumFiles: String(options.includeChecksumFiles),
  }).toString()}`;

/** A file's own URL, each segment encoded (names may hold spaces, '#', '?'). */
export const artifactHref = (repoKey: string, path: string) =>
  `/artifactory/${[repoKey, ...path.split('/').filter(Boolean)].map(encodeURIComponent).join('/')}`;

type Located = Pick<TreeNode, 'repoKey' | 'path'>;
const at = (node: Located, extra: Record<string, string> = {}) => ({
  searchParams: { repoKey: node.repoKey, path: node.path, ...extra },
});

/** The detail tabs' calls (docs/tree-browser.md). */
export const treeTabsApi = {
  dependencyDeclaration: (node: Located, buildtool: BuildTool) =>
    call<{ dependencyData: string }>('GET', '/ui/dependencydeclaration', at(node, { buildtool })),
  properties: (node: Located) =>
    call<{ artifactProperties: ArtifactProperty[] }>('GET', '/ui/artifactproperties', at(node)),
  setProperty: (node: Located, property: ArtifactProperty, recursive: boolean) =>
    call<Info>('POST', '/ui/artifactproperties', {
      ...at(node, { recursive: String(recursive) }),
      json: property,
    }),
  /** The property sets the node's repository offers, for the add-from-a-set form. */
  propertySets: (node: Located) =>
    call<PropertySet[]>('GET', '/ui/repopropertyset', { searchParams: { repoKey: node.repoKey } }),
  deleteProperties: (node: Located, names: string[], recursive: boolean) =>
    call<Info>('POST', '/ui/deleteproperties', {
      ...at(node, { recursive: String(recursive) }),
      json: { properties: names },
    }),
  watches: (node: Located) => call<WatchStatus>('GET', '/ui/artifactwatches', at(node)),
  builds: (node: Located) => call<ArtifactBuilds>('GET', '/ui/artifactbuilds', at(node)),
  watch: (node: Located) =>
    call<Info>('POST', '/ui/artifactwatches', { json: { repoKey: node.repoKey, path: node.path } }),
  unwatch: (node: Located, name?: string) =>
    call<Info>('POST', '/ui/artifactwatches/remove', {
      json: { repoKey: node.repoKey, path: node.path, ...(name ? { name } : {}) },
    }),
  archiveEntries: (node: Located) =>
    call<{ entries: ArchiveEntry[]; truncated: boolean }>('POST', '/ui/archiveViewSource', {
      json: { repoKey: node.repoKey, archivePath: node.path },
    }),
  archiveSource: (node: Located, sourcePath: string) =>
    call<ArchiveSource>('POST', '/ui/archiveViewSource', {
      json: { repoKey: node.repoKey, archivePath: node.path, sourcePath },
    }),
  view: (node: Located, view: FileView) =>
    call<{ fileContent: string }>('POST', '/ui/views', {
      json: { repoKey: node.repoKey, path: node.path, view },
    }),
};

/** The Effective Permissions tab's call (admins only): 25 a page by principal (spec 02 §9). */
export const effectivePermissionsApi = {
  page: (node: Pick<TreeNode, 'repoKey' | 'path'>, pageNum: number, direction: 'asc' | 'desc') =>
    call<EffectivePermissionsPage>('GET', '/ui/artifactpermissions', {
      searchParams: {
        repoKey: node.repoKey,
        path: node.path,
        pageNum,
        numOfRows: 25,
        direction,
        orderBy: 'principal',
      },
    }),
};

import type { RootsQuery, TreeNode, TreePage } from '../../server/modules/tree-browser/service.ts';
import { call } from './client';

/** The tree's data (server/modules/tree-browser, docs/tree-browser.md). */
export type { TreeNode, TreePage };
export type TreeSortBy = NonNullable<RootsQuery['sortBy']>;

export interface TreeFilters {
  packageTypes: string[];
  repositoryTypes: string[];
}

export interface RootsRequest extends TreeFilters {
  sortBy: TreeSortBy;
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

/** What a node offers: its detail tabs and the actions the caller may take on it. */
export interface TabsAndActions {
  tabs: { name: string }[];
  actions: { name: string }[];
}

export interface ArtifactGeneralInfo {
  name: string;
  repoKey: string;
  path: string;
  repositoryPath: string;
  packageType: string;
  repoType: string;
  size?: number;
  mimeType?: string;
  created?: string;
  lastModified?: string;
  createdBy?: string;
  modifiedBy?: string;
  downloadPath?: string;
  description?: string;
  url?: string;
  includesPattern?: string;
  excludesPattern?: string;
  repositories?: string[];
}

export interface ArtifactChecksums {
  sha256: string;
  sha1: string;
  md5: string | null;
  original?: { sha1?: string; md5?: string; sha256?: string };
  showFixChecksums: boolean;
}

export interface ArtifactGeneral {
  type: TreeNode['type'];
  info: ArtifactGeneralInfo;
  checksums?: ArtifactChecksums;
}

export interface ArtifactsCount {
  artifactsCount: number;
  artifactSize: number;
}

const TREE = '/ui/treebrowser';
const compactedQuery = (compacted: boolean) => (compacted ? '?compacted=true' : '');

export const treeBrowserApi = {
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
const ACTIONS = '/ui/artifactactions';

/** The node actions' calls (server/modules/artifact-actions, server/modules/archives). */
export const artifactActionsApi = {
  transfer: (action: 'copy' | 'move' | 'restore', request: TransferRequest) =>
    call<Info>('POST', `${ACTIONS}/${action}`, { json: request }),
  delete: (request: { repoKey: string; path: string; permDelete: boolean }) =>
    call<Info>('POST', `${ACTIONS}/delete`, { json: request }),
  emptyTrash: () => call<Info>('POST', `${ACTIONS}/emptytrash`),
  downloadFolderInfo: (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
    call<FolderDownloadInfo>('GET', `${ACTIONS}/downloadfolderinfo`, {
      searchParams: { repoKey: node.repoKey, path: node.path },
    }),
};

/** Where the console downloads a folder from, as a zip archive. */
export const folderDownloadHref = (node: Pick<TreeNode, 'repoKey' | 'path'>) =>
  `/ui/api/v1/ui/artifactactions/downloadfolder?${new URLSearchParams({
    repoKey: node.repoKey,
    path: node.path,
    archiveType: 'zip',
  }).toString()}`;

/** A file's own URL, each segment encoded (names may hold spaces, '#', '?'). */
export const artifactHref = (repoKey: string, path: string) =>
  `/artifactory/${[repoKey, ...path.split('/').filter(Boolean)].map(encodeURIComponent).join('/')}`;

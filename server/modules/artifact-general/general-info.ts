import type { DownloadStats } from '../maintenance/download-stats.ts';
import type { LocatedNode } from '../tree-browser/locate-node.ts';

type RepositoryRow = LocatedNode['repo'];
type NodeRow = NonNullable<LocatedNode['node']>;

/** The General tab's facts about a node (spec 02 §7, /ui/artifactgeneral). */
export interface GeneralInfo {
  name: string;
  repoKey: string;
  path: string;
  /** `repoKey/path`; `repoKey/` for a repository. */
  repositoryPath: string;
  packageType: string;
  repoType: RepositoryRow['rclass'];
  size?: number;
  mimeType?: string;
  created?: string;
  lastModified?: string;
  createdBy?: string;
  modifiedBy?: string;
  /** Where the console GETs the file: `/artifactory/{repoKey}/{path}`, each segment encoded. */
  downloadPath?: string;
  /** Files only: how often the file was downloaded, when last and by whom (issue 6, item 7). */
  downloadCount?: number;
  lastDownloaded?: string;
  lastDownloadedBy?: string;
  description?: string;
  url?: string;
  includesPattern?: string;
  excludesPattern?: string;
  repositories?: string[];
}

export interface GeneralChecksums {
  sha256: string;
  sha1: string;
  /** Null until something asked for it (a download's checksum file, say): never computed here. */
  md5: string | null;
  /** What the client sent at deploy: Depot verifies it then and keeps no copy, so never answered. */
  original?: { sha1?: string; md5?: string; sha256?: string };
  /**
   * Whether the caller is offered the checksum fix: the MD5 is not known yet, and the caller
   * may deploy the file. A deploy whose sent checksums differ is refused, so a missing MD5 is
   * the one thing to fix; the fix also proves the content on disk still matches.
   */
  showFixChecksums: boolean;
}

export interface ArtifactGeneral {
  type: LocatedNode['type'];
  info: GeneralInfo;
  checksums?: GeneralChecksums;
}

const iso = (date: Date | string) => new Date(date).toISOString();

/** A remote's upstream without any user and password written into it: readers see this. */
function publicUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return undefined;
  }
}

function repositoryInfo(repo: RepositoryRow): GeneralInfo {
  const config = repo.config as { url?: string; repositories?: string[] };
  return {
    name: repo.key,
    repoKey: repo.key,
    path: '',
    repositoryPath: `${repo.key}/`,
    packageType: repo.package_type,
    repoType: repo.rclass,
    description: repo.description,
    ...(repo.rclass === 'remote' ? { url: publicUrl(config.url) } : {}),
    includesPattern: repo.includes_pattern,
    excludesPattern: repo.excludes_pattern,
    created: iso(repo.created_at),
    ...(repo.rclass === 'virtual' ? { repositories: config.repositories ?? [] } : {}),
  };
}

function nodeInfo(repo: RepositoryRow, node: NodeRow): GeneralInfo {
  const common = {
    name: node.name,
    repoKey: repo.key,
    path: node.path,
    repositoryPath: `${repo.key}/${node.path}`,
    packageType: repo.package_type,
    repoType: repo.rclass,
    created: iso(node.created_at),
    lastModified: iso(node.modified_at),
    createdBy: node.created_by,
  };
  if (node.folder) return common;
  const encoded = node.path.split('/').map(encodeURIComponent).join('/');
  return {
    ...common,
    size: Number(node.size),
    mimeType: node.mime_type ?? 'application/octet-stream',
    modifiedBy: node.modified_by,
    downloadPath: `/artifactory/${encodeURIComponent(repo.key)}/${encoded}`,
  };
}

/** What the General tab adds to a file's row: its download statistics, the caller's rights. */
export interface FileFacts {
  stats?: DownloadStats;
  mayFix: boolean;
}

function statsInfo(stats: DownloadStats | undefined): Partial<GeneralInfo> {
  if (!stats) return {};
  return {
    downloadCount: stats.downloadCount,
    ...(stats.lastDownloaded ? { lastDownloaded: iso(stats.lastDownloaded) } : {}),
    ...(stats.lastDownloadedBy ? { lastDownloadedBy: stats.lastDownloadedBy } : {}),
  };
}

/** The General tab of a located node: checksums and download statistics for files only. */
export function artifactGeneral(
  located: LocatedNode,
  facts: FileFacts = { mayFix: false },
): ArtifactGeneral {
  const { repo, node, type } = located;
  if (!node) return { type, info: repositoryInfo(repo) };
  if (node.folder) return { type, info: nodeInfo(repo, node) };
  return {
    type,
    info: { ...nodeInfo(repo, node), ...statsInfo(facts.stats) },
    checksums: {
      sha256: node.sha256!,
      sha1: node.sha1!,
      md5: node.md5,
      showFixChecksums: facts.mayFix && node.md5 === null,
    },
  };
}

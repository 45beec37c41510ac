import { viewableArchiveType } from '../archive-view/archive-types.ts';
import { splitPath } from '../artifacts/paths.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { MANIFEST_FILE_NAMES } from '../../formats/docker/manifests.ts';
import { hasPom } from '../file-views/has-pom.ts';
import { viewApplies } from '../file-views/view-rules.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import type { LocatedNode } from './locate-node.ts';

/** The node's tabs in the order the console shows them (spec 02 §2). */
export const NODE_TABS = [
  'General',
  'Builds',
  'Properties',
  'Watch',
  'ViewSource',
  'PomView',
  'GeneralXml',
  'PackageJson',
  'DockerV2Info',
] as const;
export type NodeTab = (typeof NODE_TABS)[number];

export type TabNode = Pick<LocatedNode, 'type' | 'repo' | 'path'> &
  Partial<Pick<LocatedNode, 'node'>> & {
    /** Looked up by `withTabFacts`: whether PomView has a POM to show. */
    hasPom?: boolean;
    /** Looked up by `withTabFacts`: whether a Docker tag folder holds its manifest. */
    isDockerTag?: boolean;
    /** Looked up for the caller: whether a build it may read lists the file's content. */
    hasBuilds?: boolean;
  };

/** A located node with what its tabs need looked up beyond its name: a jar's POM. */
export async function withTabFacts(
  artifacts: ArtifactsService,
  node: LocatedNode,
): Promise<LocatedNode & TabNode> {
  return {
    ...node,
    hasPom: await hasPom(artifacts, node),
    isDockerTag: await isDockerTag(artifacts, node),
  };
}

const isManifestName = (path: string) =>
  MANIFEST_FILE_NAMES.includes(path.slice(path.lastIndexOf('/') + 1));

/** A Docker repository's manifest file, or a folder holding one (a tag's): one lookup a name. */
async function isDockerTag(artifacts: ArtifactsService, node: LocatedNode): Promise<boolean> {
  if (node.repo.package_type !== 'docker' || !node.source) return false;
  if (node.type === 'file') return isManifestName(node.path);
  for (const name of MANIFEST_FILE_NAMES) {
    const found = await artifacts.findNode(node.source.id, `${node.path}/${name}`);
    if (found && !found.folder) return true;
  }
  return false;
}

const fileView = (view: 'GeneralXml' | 'PackageJson') => (node: TabNode) =>
  node.type === 'file' && viewApplies(view, node.path, node.repo.package_type);

export const inTrash = (node: TabNode) => node.repo.key.toLowerCase() === TRASH_REPO_KEY;

/**
 * When each tab applies. Only tabs whose server calls answer for the node are listed: the
 * console falls back to General for any other (spec 02 §2), so an unlisted tab costs nothing
 * and a listed one must work.
 */
const APPLIES: Record<NodeTab, (node: TabNode) => boolean> = {
  General: () => true,
  // Only where there is something to show: a file some build the caller may read lists.
  Builds: (node) => node.type === 'file' && node.hasBuilds === true,
  // A repository root shows the repository's own properties; a virtual repository stores
  // none, and shows its members' files' properties (read only).
  Properties: (node) =>
    node.type === 'repository'
      ? node.repo.rclass !== 'virtual' && !inTrash(node)
      : node.repo.rclass !== 'virtual' || node.type === 'file',
  Watch: (node) => !inTrash(node),
  ViewSource: (node) =>
    node.type === 'file' && viewableArchiveType(splitPath(node.path).name) !== undefined,
  PomView: (node) => node.hasPom === true,
  GeneralXml: fileView('GeneralXml'),
  PackageJson: fileView('PackageJson'),
  DockerV2Info: (node) => node.isDockerTag === true,
};

/** The tabs of a node, in the console's order. */
export function nodeTabs(node: TabNode): NodeTab[] {
  return NODE_TABS.filter((tab) => APPLIES[tab](node));
}

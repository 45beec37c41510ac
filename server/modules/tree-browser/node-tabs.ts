import { viewableArchiveType } from '../archive-view/archive-types.ts';
import { splitPath } from '../artifacts/paths.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
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
] as const;
export type NodeTab = (typeof NODE_TABS)[number];

export type TabNode = Pick<LocatedNode, 'type' | 'repo' | 'path'> &
  Partial<Pick<LocatedNode, 'node'>> & {
    /** Looked up by `withTabFacts`: whether PomView has a POM to show. */
    hasPom?: boolean;
    /** Looked up for the caller: whether a build it may read lists the file's content. */
    hasBuilds?: boolean;
  };

/** A located node with what its tabs need looked up beyond its name: a jar's POM. */
export async function withTabFacts(
  artifacts: ArtifactsService,
  node: LocatedNode,
): Promise<LocatedNode & TabNode> {
  return { ...node, hasPom: await hasPom(artifacts, node) };
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
};

/** The tabs of a node, in the console's order. */
export function nodeTabs(node: TabNode): NodeTab[] {
  return NODE_TABS.filter((tab) => APPLIES[tab](node));
}

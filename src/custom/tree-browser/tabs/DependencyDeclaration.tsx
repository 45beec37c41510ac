import { useState } from 'react';
import { treeTabsApi, type BuildTool, type TreeNode } from '../../../api/treeBrowser';
import { TAB_LABELS as T } from '../messages';
import { TabBar } from '../../../design/components/TabBar';
import { useKeyedData } from '../../../components/useKeyedData';
import { ScrollableCode } from '../../../components/ScrollableCode';

const MAVEN_LIKE = new Set(['maven', 'gradle', 'ivy', 'sbt']);

/** The build tools that can declare this file as a dependency (spec 02 §2 General). */
export function buildToolsFor(node: TreeNode): BuildTool[] {
  if (node.type !== 'file') return [];
  const type = node.repoPkgType.toLowerCase();
  if (MAVEN_LIKE.has(type)) return ['maven', 'gradle', 'ivy', 'sbt'];
  if (type === 'npm') return ['npm'];
  return [];
}

/** The snippet to paste into a build file, one tool at a time. */
export function DependencyDeclaration({ node }: { node: TreeNode }) {
  const tools = buildToolsFor(node);
  const [tool, setTool] = useState<BuildTool>(tools[0] ?? 'maven');
  const key = `${node.repoKey}/${node.path}:${tool}`;
  const { data, error } = useKeyedData(
    key,
    () => treeTabsApi.dependencyDeclaration(node, tool),
    T.declarationFailed,
  );
  if (tools.length === 0) return null;
  return (
    <section aria-label={T.dependencyDeclaration} className="tree-declaration">
      <h3>{T.dependencyDeclaration}</h3>
      <TabBar
        label={T.buildTool}
        names={tools}
        selected={tool}
        labelOf={(name) => T.buildTools[name]}
        onSelect={setTool}
      >
        {/* a path the tool cannot read simply has no snippet */}
        {data && (
          <ScrollableCode label={T.dependencyDeclaration}>{data.dependencyData}</ScrollableCode>
        )}
        {error && <p className="hint">{error}</p>}
      </TabBar>
    </section>
  );
}

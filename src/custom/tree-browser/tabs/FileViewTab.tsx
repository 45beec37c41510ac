import { treeTabsApi, type FileView, type TreeNode } from '../../../api/treeBrowser';
import { TAB_LABELS } from '../messages';
import { nodeId } from '../rows';
import { useKeyedData } from '../../../components/useKeyedData';
import { ScrollableCode } from '../../../components/ScrollableCode';

/** PomView, GeneralXml and package.json: the text the server picks for the view. */
export function FileViewTab({ node, view }: { node: TreeNode; view: FileView }) {
  const { data, error } = useKeyedData(
    `${nodeId(node)}:${view}`,
    () => treeTabsApi.view(node, view),
    TAB_LABELS.viewFailed,
  );
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  return (
    data && (
      <ScrollableCode label={node.path.split('/').pop() ?? node.repoKey}>
        {data.fileContent}
      </ScrollableCode>
    )
  );
}

import type { ItemBuild } from '../../../../server/modules/builds/artifact-builds.ts';
import { treeTabsApi, type TreeNode } from '../../../api/treeBrowser';
import { formatDate } from '../../../engine/list/cellFormat';
import { TAB_LABELS } from '../messages';
import { nodeId } from '../rows';
import { useKeyedData } from '../../../components/useKeyedData';
import { buildPath } from '../../../components/buildLinks';
import { Link } from 'react-router-dom';

const T = TAB_LABELS.builds;

/**
 * The Builds tab: the builds whose modules list this file as an artifact or a dependency.
 * The tree shows it for a file, the package browser for a version's lead file.
 */
export function BuildsTab({ node }: { node: Pick<TreeNode, 'repoKey' | 'path'> }) {
  const { data, error } = useKeyedData(nodeId(node), () => treeTabsApi.builds(node), T.failed);
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!data) return null;
  if (data.producedBy.length + data.usedBy.length === 0) return <p className="hint">{T.none}</p>;
  return (
    <>
      <BuildTable caption={T.producedBy} builds={data.producedBy} />
      <BuildTable caption={T.usedBy} builds={data.usedBy} withScope />
    </>
  );
}

function BuildTable({
  caption,
  builds,
  withScope = false,
}: {
  caption: string;
  builds: ItemBuild[];
  withScope?: boolean;
}) {
  if (builds.length === 0) return null;
  return (
    <table className="tree-table" aria-label={caption}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{T.name}</th>
          <th scope="col">{T.number}</th>
          <th scope="col">{T.module}</th>
          <th scope="col">{T.started}</th>
          {withScope && <th scope="col">{T.scope}</th>}
        </tr>
      </thead>
      <tbody>
        {builds.map((build) => (
          <tr key={`${build.name}#${build.number}@${build.started}/${build.moduleID}`}>
            <td>
              <Link to={buildPath(build.name)}>{build.name}</Link>
            </td>
            <td>
              <Link to={buildPath(build.name, build.number, build.startedMillis)}>
                {build.number}
              </Link>
            </td>
            <td>{build.moduleID}</td>
            <td>{formatDate(new Date(build.startedMillis).toISOString())}</td>
            {withScope && <td>{build.scope ?? ''}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

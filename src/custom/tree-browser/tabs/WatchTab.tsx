import { useUnit } from 'effector-react';
import { errorMessage } from '../../../api/errorMessage';
import { treeTabsApi, type TreeNode } from '../../../api/treeBrowser';
import { formatDate } from '../../../engine/list/cellFormat';
import { notificationShown } from '../../../shell/notifications/model';
import { $watchesVersion } from '../actions-model';
import { TAB_LABELS } from '../messages';
import { nodeId } from '../rows';
import { useKeyedData } from '../../../components/useKeyedData';

const T = TAB_LABELS.watch;

/** The Watch tab: who watches this node or one above it, and since when. */
export function WatchTab({ node }: { node: TreeNode }) {
  const [version, notify] = useUnit([$watchesVersion, notificationShown]);
  const { data, error, reload } = useKeyedData(
    `${nodeId(node)}#${version}`,
    () => treeTabsApi.watches(node),
    T.failed,
  );
  const remove = async (name: string, path: string) => {
    const [repoKey, ...rest] = path.split('/');
    try {
      notify({
        kind: 'success',
        text: (await treeTabsApi.unwatch({ repoKey, path: rest.join('/') }, name)).info,
      });
      reload();
    } catch (failure) {
      notify({ kind: 'error', text: errorMessage(failure) });
    }
  };
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!data) return null;
  if (data.watchers.length === 0) return <p className="hint">{T.none}</p>;
  return (
    <table className="tree-table" aria-label={T.watchers}>
      <thead>
        <tr>
          <th scope="col">{T.user}</th>
          <th scope="col">{T.watched}</th>
          <th scope="col">{T.since}</th>
          <th scope="col">
            <span className="visually-hidden">{T.remove('')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {data.watchers.map((watcher) => (
          <tr key={`${watcher.name}@${watcher.path}`}>
            <td>{watcher.name}</td>
            <td>{watcher.path}</td>
            <td>{formatDate(watcher.watchingSince)}</td>
            <td className="tree-table-actions">
              <button
                type="button"
                className="btn btn-link"
                aria-label={T.remove(watcher.name)}
                onClick={() => remove(watcher.name, watcher.path)}
              >
                ✕
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

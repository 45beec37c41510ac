import { useState } from 'react';
import { effectivePermissionsApi, type TreeNode } from '../../../api/treeBrowser';
import { TAB_LABELS } from '../messages';
import { nodeId } from '../rows';
import { useKeyedData } from '../../../components/useKeyedData';

const T = TAB_LABELS.permissions;
const ACTIONS = ['read', 'annotate', 'deploy', 'delete', 'manage'] as const;

/** Effective Permissions: who may do what on the node, 25 principals a page. */
export function EffectivePermissionsTab({ node }: { node: TreeNode }) {
  const [pageNum, setPageNum] = useState(1);
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const { data, error } = useKeyedData(
    `${nodeId(node)}#${pageNum}:${direction}`,
    () => effectivePermissionsApi.page(node, pageNum, direction),
    T.failed,
  );
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!data) return null;
  const pages = Math.max(1, Math.ceil(data.totalCount / data.numOfRows));
  return (
    <div>
      <table className="tree-table" aria-label={T.title}>
        <thead>
          <tr>
            <th scope="col" aria-sort={direction === 'asc' ? 'ascending' : 'descending'}>
              <button
                type="button"
                className="btn btn-link"
                onClick={() => setDirection(direction === 'asc' ? 'desc' : 'asc')}
              >
                {T.principal} {direction === 'asc' ? '▲' : '▼'}
              </button>
            </th>
            <th scope="col">{T.type}</th>
            {ACTIONS.map((action) => (
              <th key={action} scope="col">
                {T.actions[action]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.data.map((row) => (
            <tr key={`${row.type}:${row.principal}`}>
              <td>{row.principal}</td>
              <td>{T.types[row.type]}</td>
              {ACTIONS.map((action) => (
                <td key={action} aria-label={row.actions[action] ? T.granted : T.notGranted}>
                  {row.actions[action] ? '✓' : ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="tree-pager" aria-label={T.pages}>
        <button
          type="button"
          className="btn"
          disabled={pageNum <= 1}
          onClick={() => setPageNum(pageNum - 1)}
        >
          {T.previous}
        </button>
        <span>{T.pageOf(pageNum, pages, data.totalCount)}</span>
        <button
          type="button"
          className="btn"
          disabled={pageNum >= pages}
          onClick={() => setPageNum(pageNum + 1)}
        >
          {T.next}
        </button>
      </nav>
    </div>
  );
}

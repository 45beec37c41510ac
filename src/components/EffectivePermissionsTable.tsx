import { useState } from 'react';
import type { EffectivePermissionsPage } from '../api/treeBrowser';
import { useKeyedData } from './useKeyedData';

/** The Effective Permissions tab's words, the tree's and a build's alike. */
export const EFFECTIVE_PERMISSION_LABELS = {
  title: 'Effective Permissions',
  principal: 'Principal',
  type: 'Type',
  types: { user: 'User', group: 'Group' },
  actions: {
    read: 'Read',
    annotate: 'Annotate',
    deploy: 'Deploy/Cache',
    delete: 'Delete/Overwrite',
    manage: 'Manage',
  },
  granted: 'granted',
  notGranted: 'not granted',
  pages: 'Pages',
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number, total: number) =>
    `Page ${page} of ${pages} (${total.toLocaleString('en-US')} principals)`,
  failed: 'Could not load the effective permissions',
};

const T = EFFECTIVE_PERMISSION_LABELS;
const ACTIONS = ['read', 'annotate', 'deploy', 'delete', 'manage'] as const;

export type PermissionsPageLoader = (
  pageNum: number,
  direction: 'asc' | 'desc',
) => Promise<EffectivePermissionsPage>;

/**
 * Effective Permissions: who may do what on one thing (a node, a build), 25 principals a
 * page. `subject` names the thing: a new one starts over.
 */
export function EffectivePermissionsTable({
  subject,
  load,
}: {
  subject: string;
  load: PermissionsPageLoader;
}) {
  const [pageNum, setPageNum] = useState(1);
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const { data, error } = useKeyedData(
    `${subject}#${pageNum}:${direction}`,
    () => load(pageNum, direction),
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

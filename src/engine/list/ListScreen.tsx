import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import type { ScreenDescriptor } from '../../api/descriptor';
import { newPath } from '../screenPaths';
import { emptyStateDefault, LOADING_LABEL, NEW_LABEL_DEFAULT } from '../messages';
import { EmptyState } from '../../design/components/EmptyState';
import {
  $busy,
  $loaded,
  $loading,
  $rows,
  deleteConfirmed,
  listClosed,
  listOpened,
  rowActionConfirmed,
} from './model';

/** AG Grid is the largest dependency; it loads with the first list, never with login. */
const SchemaTable = lazy(() => import('./SchemaTable'));

/** A descriptor's list page: title, "New ..." and the table. */
export function ListScreen({ descriptor }: { descriptor: ScreenDescriptor }) {
  const [rows, loaded, loading, busy, opened, closed, onDelete, onRowAction] = useUnit([
    $rows,
    $loaded,
    $loading,
    $busy,
    listOpened,
    listClosed,
    deleteConfirmed,
    rowActionConfirmed,
  ]);
  useEffect(() => {
    opened(descriptor);
    return () => closed();
  }, [descriptor, opened, closed]);

  const newLabel = descriptor.list.newLabel ?? NEW_LABEL_DEFAULT;
  const empty = descriptor.list.emptyState ?? emptyStateDefault(descriptor.title, newLabel);
  return (
    <section aria-labelledby="list-title">
      <header className="page-header">
        <h1 id="list-title">{descriptor.title}</h1>
        <Link className="btn btn-primary" to={newPath(descriptor.route)}>
          {newLabel}
        </Link>
      </header>
      {loaded && rows.length === 0 ? (
        <EmptyState title={empty.title} text={empty.text} />
      ) : (
        <Suspense fallback={<p role="status">{LOADING_LABEL}</p>}>
          <SchemaTable
            descriptor={descriptor}
            rows={rows}
            loading={loading}
            busy={busy}
            onDelete={onDelete}
            onRowAction={(action, row) => onRowAction({ action, row })}
          />
        </Suspense>
      )}
    </section>
  );
}

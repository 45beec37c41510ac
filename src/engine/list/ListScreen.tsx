import { useCallback, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import type { ScreenDescriptor } from '../../api/descriptor';
import { editPathOf, newPath } from '../screenPaths';
import type { Row } from '../../api/resource';
import { emptyStateDefault, NEW_LABEL_DEFAULT } from '../messages';
import { ListGrid } from './ListGrid';
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

  const keyOf = useCallback((row: Row) => String(row[descriptor.key]), [descriptor]);
  const editPath = useCallback((row: Row) => editPathOf(descriptor, row), [descriptor]);
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
      <ListGrid
        list={descriptor.list}
        label={descriptor.list.label ?? descriptor.title}
        keyOf={keyOf}
        editPath={editPath}
        rows={rows}
        loaded={loaded}
        emptyState={empty}
        loading={loading}
        busy={busy}
        onDelete={(chosen) => onDelete(chosen.map(keyOf))}
        rowActions={descriptor.rowActions}
        onRowAction={(action, row) => onRowAction({ action, row })}
      />
    </section>
  );
}

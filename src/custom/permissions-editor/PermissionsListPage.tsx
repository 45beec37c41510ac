import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  PaginationModule,
  QuickFilterModule,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import type { PermissionTargetRow } from '../../api/permissions';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { $currentUser } from '../../shell/session/model';
import { $listLoading, $rows, deleteConfirmed, listOpened } from './model';
import {
  PERMISSION_LABELS as L,
  PERMISSIONS_PAGE_SIZE,
  editPermissionPath,
  newPermissionPath,
} from './messages';
import './permissions.css';

ModuleRegistry.registerModules([ClientSideRowModelModule, PaginationModule, QuickFilterModule]);

type Row = PermissionTargetRow;
const joined = (values: string[] | undefined) => values?.join(', ') ?? '';

/** The list's columns; only an admin deletes (a manager edits what they manage). */
function columns(onDelete: ((row: Row) => void) | null): ColDef<Row>[] {
  const nameAndNames: ColDef<Row>[] = [
    {
      field: 'name',
      headerName: L.name,
      flex: 1,
      cellRenderer: ({ data }: ICellRendererParams<Row>) =>
        data && <Link to={editPermissionPath(data.name)}>{data.name}</Link>,
    },
    { headerName: L.repositories, flex: 2, valueGetter: ({ data }) => joined(data?.repositories) },
    { headerName: L.groups, flex: 1, valueGetter: ({ data }) => joined(data?.groups) },
    { headerName: L.users, flex: 1, valueGetter: ({ data }) => joined(data?.users) },
  ];
  if (!onDelete) return nameAndNames;
  return [
    ...nameAndNames,
    {
      headerName: L.actions,
      width: 110,
      sortable: false,
      cellRenderer: ({ data }: ICellRendererParams<Row>) =>
        data && (
          <button
            type="button"
            className="btn btn-link"
            aria-label={L.deleteRow(data.name)}
            onClick={() => onDelete(data)}
          >
            {L.delete}
          </button>
        ),
    },
  ];
}

/**
 * Administration > User Management > Permissions: the targets, 50 a page, New and Delete.
 * A manager who is not an admin sees the targets they manage, without New and Delete.
 */
export default function PermissionsListPage() {
  const [rows, loading, opened, confirmDelete, user] = useUnit([
    $rows,
    $listLoading,
    listOpened,
    deleteConfirmed,
    $currentUser,
  ]);
  const admin = user?.admin === true;
  const [pending, setPending] = useState<Row | null>(null);
  const [search, setSearch] = useState('');
  const columnDefs = useMemo(() => columns(admin ? setPending : null), [admin]);
  useEffect(() => opened(), [opened]);

  return (
    <section aria-labelledby="permissions-title" className="permissions-page">
      <header className="page-header">
        <h1 id="permissions-title">{L.title}</h1>
        {admin && (
          <Link className="btn btn-primary" to={newPermissionPath()}>
            {L.newPermission}
          </Link>
        )}
      </header>
      <input
        className="input permissions-search"
        type="search"
        aria-label={L.search}
        placeholder={L.search}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {!loading && rows.length === 0 ? (
        <p role="status">{L.empty}</p>
      ) : (
        <AgGridReact<Row>
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={rows}
          columnDefs={columnDefs}
          getRowId={({ data }) => data.name}
          loading={loading}
          quickFilterText={search}
          pagination
          paginationPageSize={PERMISSIONS_PAGE_SIZE}
          paginationPageSizeSelector={false}
          domLayout="autoHeight"
        />
      )}
      {pending && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={L.deleteText(pending.name)}
          confirmLabel={L.delete}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => {
            confirmDelete(pending.name);
            setPending(null);
          }}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}

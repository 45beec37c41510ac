import { useEffect, useMemo, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { REPO_KINDS, type RepoKind, type RepositoryListItem } from '../../api/repositories';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { $deleting, $loading, $rows, deleteConfirmed, listOpened } from './listModel';
import {
  KIND_LABELS,
  REPO_LABELS,
  deleteRepositoryText,
  editRepositoryPath,
  listPath,
  newRepositoryPath,
} from './messages';
import './repositories.css';

ModuleRegistry.registerModules([ClientSideRowModelModule]);

type Row = RepositoryListItem;

const bytes = (value: number | undefined) => {
  if (value === undefined) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${units[unit]}`;
};

/** The columns of a tab: what tells repositories of that kind apart. */
function columnsFor(kind: RepoKind, onDelete: (row: Row) => void): ColDef<Row>[] {
  const key: ColDef<Row> = {
    field: 'repoKey',
    headerName: REPO_LABELS.repoKey,
    flex: 1,
    cellRenderer: ({ data }: ICellRendererParams<Row>) =>
      data && <Link to={editRepositoryPath(data.repoType, data.repoKey)}>{data.repoKey}</Link>,
  };
  const packageType: ColDef<Row> = {
    field: 'packageTypeText',
    headerName: REPO_LABELS.packageType,
    width: 160,
  };
  const byKind: Record<RepoKind, ColDef<Row>[]> = {
    local: [{ field: 'layout', headerName: REPO_LABELS.layout, flex: 1 }],
    remote: [{ field: 'url', headerName: REPO_LABELS.url, flex: 2 }],
    virtual: [
      {
        headerName: REPO_LABELS.members,
        flex: 2,
        valueGetter: ({ data }) => data?.repositories?.join(', ') ?? '',
      },
    ],
  };
  const counts: ColDef<Row>[] =
    kind === 'virtual'
      ? []
      : [
          { field: 'filesCount', headerName: REPO_LABELS.files, width: 100 },
          {
            field: 'usedSpace',
            headerName: REPO_LABELS.size,
            width: 110,
            valueFormatter: ({ value }) => bytes(value as number | undefined),
          },
        ];
  const actions: ColDef<Row> = {
    headerName: REPO_LABELS.actions,
    width: 110,
    sortable: false,
    cellRenderer: ({ data }: ICellRendererParams<Row>) =>
      data && (
        <button
          type="button"
          className="btn btn-link"
          aria-label={REPO_LABELS.deleteRow(data.repoKey)}
          onClick={() => onDelete(data)}
        >
          {REPO_LABELS.delete}
        </button>
      ),
  };
  return [key, packageType, ...byKind[kind], ...counts, actions];
}

/** Admin > Repositories: one tab per kind, its repositories, New and Delete. */
export default function RepositoriesListPage({ kind }: { kind: RepoKind }) {
  const [rows, loading, deleting, opened, confirmDelete] = useUnit([
    $rows,
    $loading,
    $deleting,
    listOpened,
    deleteConfirmed,
  ]);
  const [pending, setPending] = useState<Row | null>(null);
  const columns = useMemo(() => columnsFor(kind, setPending), [kind]);
  useEffect(() => {
    opened(kind);
  }, [kind, opened]);

  return (
    <section aria-labelledby="repositories-title" className="repositories-page">
      <header className="page-header">
        <h1 id="repositories-title">{REPO_LABELS.title}</h1>
        <Link className="btn btn-primary" to={newRepositoryPath(kind)}>
          {REPO_LABELS.newRepository(kind)}
        </Link>
      </header>
      <nav className="repo-tabs" aria-label={REPO_LABELS.tabs}>
        {REPO_KINDS.map((tab) => (
          <NavLink key={tab} to={listPath(tab)} className="repo-tab">
            {KIND_LABELS[tab]}
          </NavLink>
        ))}
      </nav>
      {!loading && rows.length === 0 ? (
        <p role="status" className="repo-empty">
          {REPO_LABELS.empty(kind)}
        </p>
      ) : (
        <AgGridReact<Row>
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={rows}
          columnDefs={columns}
          getRowId={({ data }) => data.repoKey}
          loading={loading || deleting}
          domLayout="autoHeight"
        />
      )}
      {pending && (
        <ConfirmDialog
          title={REPO_LABELS.deleteTitle}
          text={deleteRepositoryText(pending.repoKey)}
          confirmLabel={REPO_LABELS.delete}
          cancelLabel={REPO_LABELS.cancel}
          danger
          onConfirm={() => {
            confirmDelete(pending);
            setPending(null);
          }}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}

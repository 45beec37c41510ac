import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  PaginationModule,
  QuickFilterModule,
  RowSelectionModule,
  TextFilterModule,
  ValidationModule,
  type CellKeyDownEvent,
  type RowSelectionOptions,
} from 'ag-grid-community';
import type { RowAction, ScreenDescriptor } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { fillTemplate } from '../template';
import { editPathOf } from '../screenPaths';
import {
  ACTIONS_LABEL,
  CANCEL_LABEL,
  CONFIRM_LABEL,
  DELETE_CONFIRM_DEFAULT,
  DELETE_LABEL,
  SEARCH_LABEL,
} from '../messages';
import { columnDefs } from './columnDefs';
import { useListCellRegistry } from './listCells';
import './table.css';

// Only what the list uses; ValidationModule explains grid misconfiguration in development.
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  TextFilterModule,
  PaginationModule,
  RowSelectionModule,
  QuickFilterModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

const DEFAULT_PAGE_SIZE = 25;
const rowSelection: RowSelectionOptions<Row> = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: true,
  // The header checkbox selects what the search and filters left, never hidden rows.
  selectAll: 'filtered',
  enableClickSelection: false,
};

interface SchemaTableProps {
  descriptor: ScreenDescriptor;
  rows: Row[];
  loading: boolean;
  busy: boolean;
  onDelete: (keys: string[]) => void;
  onRowAction: (action: RowAction, row: Row) => void;
}

type Pending = { kind: 'delete'; rows: Row[] } | { kind: 'action'; action: RowAction; row: Row };

/**
 * The generic list: sortable, filterable columns, a quick search, pagination, checkbox
 * selection with a bulk Delete, and the descriptor's row actions for the one selected row.
 * Actions sit above the grid, so the keyboard path is: Space selects a row, Tab reaches
 * the buttons.
 */
export default function SchemaTable({
  descriptor,
  rows,
  loading,
  busy,
  onDelete,
  onRowAction,
}: SchemaTableProps) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Row[]>([]);
  const [pending, setPending] = useState<Pending | null>(null);
  // Rows a search or filter left: at none, the grid says so and the paging panel, which would
  // read "0 to 0 of 0, Page 0 of 0", is hidden.
  const [shown, setShown] = useState(rows.length);
  const cells = useListCellRegistry();
  const columns = useMemo(() => columnDefs(descriptor, cells), [descriptor, cells]);
  const { list, key } = descriptor;
  const pageSize = list.pageSize ?? DEFAULT_PAGE_SIZE;
  const pageSizes = useMemo(
    () => [...new Set([pageSize, 25, 50, 100])].sort((a, b) => a - b),
    [pageSize],
  );
  const keyOf = (row: Row) => String(row[key]);

  const startAction = (action: RowAction) => {
    const row = selected[0];
    if (action.confirm) setPending({ kind: 'action', action, row });
    else onRowAction(action, row);
  };
  const confirm = () => {
    if (pending?.kind === 'delete') onDelete(pending.rows.map(keyOf));
    if (pending?.kind === 'action') onRowAction(pending.action, pending.row);
    setPending(null);
  };
  // Enter on the link column opens the entity, as a click on the link would.
  const onCellKeyDown = (event: CellKeyDownEvent<Row>) => {
    const key = (event.event as KeyboardEvent | null | undefined)?.key;
    const column = list.columns.find((c) => c.field === event.colDef.field);
    if (key === 'Enter' && column?.link && event.data) navigate(editPathOf(descriptor, event.data));
  };

  const deleteText = list.deleteConfirm ?? DELETE_CONFIRM_DEFAULT;
  return (
    <div className={shown === 0 ? 'schema-table schema-table-no-matches' : 'schema-table'}>
      <div className="table-toolbar">
        {list.quickSearch !== false && (
          <label className="table-search">
            <span>{SEARCH_LABEL}</span>
            <input
              className="input"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </label>
        )}
        <div className="table-actions" role="group" aria-label={ACTIONS_LABEL}>
          {(descriptor.rowActions ?? []).map((action) => (
            <button
              key={action.id}
              type="button"
              className="btn"
              disabled={busy || selected.length !== 1}
              onClick={() => startAction(action)}
            >
              {action.label}
            </button>
          ))}
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy || selected.length === 0}
            onClick={() => setPending({ kind: 'delete', rows: selected })}
          >
            {DELETE_LABEL}
          </button>
        </div>
      </div>
      <AgGridReact<Row>
        theme={depotGridTheme}
        localeText={depotGridLocaleText}
        rowData={rows}
        columnDefs={columns}
        getRowId={({ data }) => keyOf(data)}
        loading={loading}
        quickFilterText={search}
        pagination
        paginationPageSize={pageSize}
        paginationPageSizeSelector={pageSizes}
        rowSelection={rowSelection}
        domLayout="autoHeight"
        onSelectionChanged={(event) => setSelected(event.api.getSelectedRows())}
        onCellKeyDown={onCellKeyDown}
        onPaginationChanged={(event) => setShown(event.api.paginationGetRowCount())}
      />
      {pending && (
        <ConfirmDialog
          title={pending.kind === 'delete' ? deleteText.title : pending.action.label}
          text={
            pending.kind === 'delete'
              ? fillTemplate(deleteText.text, { count: pending.rows.length })
              : fillTemplate(pending.action.confirm ?? '', pending.row)
          }
          confirmLabel={pending.kind === 'delete' ? DELETE_LABEL : CONFIRM_LABEL}
          cancelLabel={CANCEL_LABEL}
          danger={pending.kind === 'delete'}
          onConfirm={confirm}
          onCancel={() => setPending(null)}
        />
      )}
    </div>
  );
}

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
import type { ListDescriptor, RowAction } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { fillTemplate } from '../template';
import {
  ACTIONS_LABEL,
  CANCEL_LABEL,
  CONFIRM_LABEL,
  DELETE_CONFIRM_DEFAULT,
  DELETE_LABEL,
  SEARCH_LABEL,
} from '../messages';
import { columnDefs, linkOf } from './columnDefs';
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

export interface SchemaTableProps {
  /** The descriptor's list block: columns, paging, search, delete wording. */
  list: ListDescriptor;
  /** The grid's accessible name: the list's `label`, else the screen's title. */
  label: string;
  /** The key of a row, which names it to the grid (and to a delete). */
  keyOf: (row: Row) => string;
  /** The row's edit page, for `link` columns; lists without one use `linkTo`. */
  editPath?: (row: Row) => string;
  rows: Row[];
  loading: boolean;
  busy: boolean;
  /** Delete the confirmed rows; without it the list offers no Delete. */
  onDelete?: (rows: Row[]) => void;
  rowActions?: RowAction[];
  onRowAction?: (action: RowAction, row: Row) => void;
}

type Pending = { kind: 'delete'; rows: Row[] } | { kind: 'action'; action: RowAction; row: Row };

/**
 * The generic list: sortable, filterable columns, a quick search, pagination, checkbox
 * selection with a bulk Delete, and the descriptor's row actions for the one selected row.
 * Actions sit above the grid, so the keyboard path is: Space selects a row, Tab reaches
 * the buttons. An engine screen's list and a bespoke screen's `lists` are both drawn by it.
 */
export default function SchemaTable({
  list,
  label,
  keyOf,
  editPath,
  rows,
  loading,
  busy,
  onDelete,
  rowActions = [],
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
  const columns = useMemo(() => columnDefs(list, editPath, cells), [list, editPath, cells]);
  const pageSize = list.pageSize ?? DEFAULT_PAGE_SIZE;
  const paged = list.pagination !== false;
  const pageSizes = useMemo(
    () => [...new Set([pageSize, 25, 50, 100])].sort((a, b) => a - b),
    [pageSize],
  );
  const selectable = onDelete !== undefined || rowActions.length > 0;

  const startAction = (action: RowAction) => {
    const row = selected[0];
    if (action.confirm) setPending({ kind: 'action', action, row });
    else onRowAction?.(action, row);
  };
  const confirm = () => {
    if (pending?.kind === 'delete') onDelete?.(pending.rows);
    if (pending?.kind === 'action') onRowAction?.(pending.action, pending.row);
    setPending(null);
  };
  // Enter on a link column opens its page, as a click on the link would.
  const onCellKeyDown = (event: CellKeyDownEvent<Row>) => {
    const key = (event.event as KeyboardEvent | null | undefined)?.key;
    const column = list.columns.find((c) => c.field === event.colDef.field);
    const to = column && event.data ? linkOf(column, editPath)?.(event.data) : undefined;
    if (key === 'Enter' && to) navigate(to);
  };

  const deleteText = list.deleteConfirm ?? DELETE_CONFIRM_DEFAULT;
  const deleteLabel = list.deleteLabel ?? DELETE_LABEL;
  const hasToolbar = list.quickSearch !== false || selectable;
  return (
    <div
      className={shown === 0 ? 'schema-table schema-table-no-matches' : 'schema-table'}
      role="region"
      aria-label={label}
    >
      {hasToolbar && (
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
          {selectable && (
            <div className="table-actions" role="group" aria-label={ACTIONS_LABEL}>
              {rowActions.map((action) => (
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
              {onDelete && (
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={busy || selected.length === 0}
                  onClick={() => setPending({ kind: 'delete', rows: selected })}
                >
                  {deleteLabel}
                </button>
              )}
            </div>
          )}
        </div>
      )}
      <AgGridReact<Row>
        theme={depotGridTheme}
        localeText={depotGridLocaleText}
        rowData={rows}
        columnDefs={columns}
        getRowId={({ data }) => keyOf(data)}
        loading={loading}
        quickFilterText={search}
        pagination={paged}
        paginationPageSize={pageSize}
        paginationPageSizeSelector={pageSizes}
        rowSelection={selectable ? rowSelection : undefined}
        domLayout="autoHeight"
        onSelectionChanged={(event) => setSelected(event.api.getSelectedRows())}
        onCellKeyDown={onCellKeyDown}
        onPaginationChanged={(event) => setShown(event.api.paginationGetRowCount())}
        // New rows, a search or a filter: a list without pages has no pagination event.
        onModelUpdated={(event) => setShown(event.api.paginationGetRowCount())}
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

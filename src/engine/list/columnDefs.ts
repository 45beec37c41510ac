import type { ColDef } from 'ag-grid-community';
import type { ListColumn, ListDescriptor } from '../../api/descriptor';
import { fillPath, type Row } from '../../api/resource';
import { formatCount, formatDate, formatValue } from './cellFormat';
import { LinkCell, WebLinkCell, type LinkCellParams } from './LinkCell';
import { FeatureCell, type ListCellRegistry } from './listCells';

/** Columns without a width share the rest of the row; none gets narrower than this. */
const MIN_COLUMN_WIDTH = 100;

function displayText(column: ListColumn, value: unknown): string {
  if (column.format === 'date') return formatDate(value);
  if (column.format === 'count') return String(formatCount(value));
  return formatValue(value);
}

/**
 * Where a column's cells link: `linkTo` filled from the row (no link when the row lacks a
 * value the path names), `link` to the row's edit page, else nowhere.
 */
export function linkOf(
  column: ListColumn,
  editPath?: (row: Row) => string,
): ((row: Row) => string | undefined) | undefined {
  const { linkTo } = column;
  if (linkTo)
    return (row) => {
      try {
        return fillPath(linkTo, row);
      } catch {
        return undefined;
      }
    };
  return column.link ? editPath : undefined;
}

/**
 * Turns a list's columns into AG Grid column definitions: every column sortable and
 * filterable as text, dates and counts formatted, arrays joined, link columns links (to the
 * edit page, `editPath`, or their `linkTo` page), `url` columns web links, a `cell` column
 * the feature's cell (from `cells`). Filter and quick search see the text the user sees.
 */
export function columnDefs(
  list: ListDescriptor,
  editPath?: (row: Row) => string,
  cells?: ListCellRegistry,
): ColDef<Row>[] {
  return list.columns.map((column) => {
    const text = (row: Row | undefined) => displayText(column, row?.[column.field]);
    const def: ColDef<Row> = {
      colId: column.field,
      field: column.field,
      headerName: column.header,
      sortable: true,
      filter: 'agTextColumnFilter',
      // Our formatters decide how values look; AG Grid's type inference would add its own.
      cellDataType: false,
      minWidth: MIN_COLUMN_WIDTH,
      filterValueGetter: ({ data }) => text(data),
      getQuickFilterText: ({ data }) => text(data),
    };
    if (column.width) def.width = column.width;
    else def.flex = 1;

    if (column.format === 'count') {
      // Sort by the number, not by the joined names.
      def.valueGetter = ({ data }) => formatCount(data?.[column.field]);
    } else {
      def.valueFormatter = ({ value }) => displayText(column, value);
    }

    if (column.cell && cells) {
      // The cell shows what the row does not hold: nothing to sort or filter by.
      def.cellRenderer = FeatureCell;
      def.cellRendererParams = { cell: cells.get(column.cell) };
      def.sortable = false;
      def.filter = false;
    }

    const to = linkOf(column, editPath);
    if (to) {
      def.cellRenderer = LinkCell;
      def.cellRendererParams = { to } satisfies Partial<LinkCellParams>;
    } else if (column.format === 'url') {
      def.cellRenderer = WebLinkCell;
    }
    return def;
  });
}

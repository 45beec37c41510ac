import type { ColDef } from 'ag-grid-community';
import type { ListColumn, ScreenDescriptor } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { editPathOf } from '../screenPaths';
import { formatCount, formatDate, formatValue } from './cellFormat';
import { LinkCell, type LinkCellParams } from './LinkCell';
import { FeatureCell, type ListCellRegistry } from './listCells';

/** Columns without a width share the rest of the row; none gets narrower than this. */
const MIN_COLUMN_WIDTH = 100;

function displayText(column: ListColumn, value: unknown): string {
  if (column.format === 'date') return formatDate(value);
  if (column.format === 'count') return String(formatCount(value));
  return formatValue(value);
}

/**
 * Turns a descriptor's list columns into AG Grid column definitions: every column sortable
 * and filterable as text, dates and counts formatted, arrays joined, the `link` column a
 * link to the edit page, a `cell` column the feature's cell. Filter and quick search see the
 * text the user sees.
 */
export function columnDefs(
  descriptor: Pick<ScreenDescriptor, 'list' | 'route' | 'key'>,
  cells?: ListCellRegistry,
): ColDef<Row>[] {
  return descriptor.list.columns.map((column) => {
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

    if (column.link) {
      def.cellRenderer = LinkCell;
      def.cellRendererParams = {
        editPath: (row: Row) => editPathOf(descriptor, row),
      } satisfies Partial<LinkCellParams>;
    }
    return def;
  });
}

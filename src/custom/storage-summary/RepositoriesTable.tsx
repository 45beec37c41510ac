import { useMemo } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ModuleRegistry,
  PinnedRowModule,
  ValidationModule,
  type ColDef,
} from 'ag-grid-community';
import type { RepositoryUsage } from '../../api/storageSummary';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { formatCount, formatPercent, formatSize } from './format';
import { STORAGE_SUMMARY_COLUMNS as C } from './messages';

// CellStyleModule applies the numeric columns' right alignment (cellClass).
ModuleRegistry.registerModules([
  CellStyleModule,
  ClientSideRowModelModule,
  PinnedRowModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

const text = (field: 'repoKey' | 'repoType' | 'packageType', headerName: string) =>
  ({ field, headerName, flex: 2, minWidth: 120 }) satisfies ColDef<RepositoryUsage>;
const numeric = (
  field: 'percentage' | 'usedSpace' | 'filesCount' | 'foldersCount' | 'itemsCount',
  headerName: string,
  format: (value: number) => string,
  minWidth = 100,
) =>
  ({
    field,
    headerName,
    flex: 1,
    minWidth,
    type: 'rightAligned',
    cellClass: 'numeric-cell',
    // Sorted by the number, shown for people.
    valueFormatter: ({ value }) => format(value as number),
  }) satisfies ColDef<RepositoryUsage>;

const COLUMNS: ColDef<RepositoryUsage>[] = [
  text('repoKey', C.repoKey),
  text('repoType', C.repoType),
  text('packageType', C.packageType),
  numeric('percentage', C.percentage, formatPercent, 115),
  numeric('usedSpace', C.usedSpace, formatSize, 125),
  numeric('filesCount', C.filesCount, formatCount),
  numeric('foldersCount', C.foldersCount, formatCount),
  numeric('itemsCount', C.itemsCount, formatCount),
];

/**
 * The per-repository table: every column sortable, sizes and counts formatted, the TOTAL
 * row pinned below the others so that sorting never moves it.
 */
export default function RepositoriesTable({
  repositories,
  total,
  loading,
}: {
  repositories: RepositoryUsage[];
  total: RepositoryUsage | undefined;
  loading: boolean;
}) {
  const pinned = useMemo(() => (total ? [total] : []), [total]);
  return (
    <AgGridReact<RepositoryUsage>
      theme={depotGridTheme}
      localeText={depotGridLocaleText}
      rowData={repositories}
      pinnedBottomRowData={pinned}
      columnDefs={COLUMNS}
      defaultColDef={{ sortable: true, cellDataType: false }}
      getRowId={({ data }) => data.repoKey}
      loading={loading}
      domLayout="autoHeight"
      // Rows in the DOM in the order shown, so screen readers read them sorted.
      ensureDomOrder
    />
  );
}

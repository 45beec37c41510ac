import { createContext, Suspense, useContext, type ComponentType } from 'react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { Row } from '../../api/resource';
import { createRegistry, type Registry } from '../registry';

/** What a feature's list cell gets: the row it sits in. */
export interface ListCellProps {
  row: Row;
}

export type ListCell = ComponentType<ListCellProps>;
export type ListCellRegistry = Registry<ListCell>;

/**
 * The cells a descriptor's list column may name with `cell` (a state the rows do not hold,
 * say). The engine knows none: the console's entry point supplies them (src/screens/listCells.ts).
 */
export function createListCellRegistry(entries: Record<string, ListCell>): ListCellRegistry {
  return createRegistry<ListCell>('list cell', entries);
}

const ListCellContext = createContext<ListCellRegistry>(createListCellRegistry({}));

/** Supplies the features' list cells to the lists below it. */
export const ListCellRegistryProvider = ListCellContext.Provider;

export function useListCellRegistry(): ListCellRegistry {
  return useContext(ListCellContext);
}

/** The grid's renderer for a feature cell: the registered component, given the row. */
export function FeatureCell({ data, cell }: CustomCellRendererProps<Row> & { cell: ListCell }) {
  const Cell = cell;
  if (!data) return null;
  return (
    <Suspense fallback={null}>
      <Cell row={data} />
    </Suspense>
  );
}

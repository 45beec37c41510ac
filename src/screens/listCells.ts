import { lazy } from 'react';
import { createListCellRegistry, type ListCell } from '../engine/list/listCells';

/**
 * The features' list cells, by the name a descriptor's list column gives as `cell`
 * (schemas/screens/*.screen.json). Each loads with the first list that shows it.
 */
const LIST_CELLS: Record<string, ListCell> = {
  'backup-state': lazy(() =>
    import('../custom/backup-status/runCells').then((m) => ({ default: m.BackupStateCell })),
  ),
  'backup-progress': lazy(() =>
    import('../custom/backup-status/runCells').then((m) => ({ default: m.BackupProgressCell })),
  ),
};

/** The names a column's `cell` may use. */
export const LIST_CELL_NAMES = Object.keys(LIST_CELLS).sort();

export const listCellRegistry = createListCellRegistry(LIST_CELLS);

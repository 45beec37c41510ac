import { lazy, Suspense } from 'react';
import { EmptyState } from '../../design/components/EmptyState';
import { LOADING_LABEL } from '../messages';
import type { SchemaTableProps } from './SchemaTable';

/** AG Grid is the largest dependency; it loads with the first list, never with login. */
const SchemaTable = lazy(() => import('./SchemaTable'));

interface ListGridProps extends SchemaTableProps {
  /** The rows asked for have arrived: only then does no row mean there are none. */
  loaded: boolean;
  /**
   * What the page says when there are no rows at all; without it the grid stays and says
   * the spec's "No Matching Results Found" (a search that found nothing).
   */
  emptyState?: { title: string; text: string };
}

/**
 * A descriptor's list drawn by the engine's grid, or its empty state while there is nothing
 * to list: the engine's list screens and the bespoke screens' `lists` (a build's versions)
 * show their rows through it.
 */
export function ListGrid({ loaded, emptyState, ...table }: ListGridProps) {
  if (loaded && table.rows.length === 0 && emptyState)
    return <EmptyState title={emptyState.title} text={emptyState.text} />;
  return (
    <Suspense fallback={<p role="status">{LOADING_LABEL}</p>}>
      <SchemaTable {...table} />
    </Suspense>
  );
}

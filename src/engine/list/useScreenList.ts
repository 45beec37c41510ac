import type { ListDescriptor } from '../../api/descriptor';
import { useDescriptor } from '../descriptors/useDescriptor';

/**
 * A bespoke screen's grid (`lists.<id>` of its descriptor), with its descriptor fetched on
 * first use: undefined while it loads; `error` when the descriptor could not be fetched or
 * has no such list.
 */
export function useScreenList(screen: string, id: string) {
  const { descriptor, error } = useDescriptor(screen);
  const lists = (descriptor as { lists?: Record<string, ListDescriptor> } | undefined)?.lists;
  const list = lists?.[id];
  const missing =
    descriptor && !list ? new Error(`Screen '${screen}' has no list '${id}'`) : undefined;
  return { list, error: error ?? missing };
}

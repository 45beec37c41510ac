import { createContext, useContext, type ComponentType } from 'react';

const ToolbarItemsContext = createContext<ComponentType[]>([]);

/**
 * Supplies the toolbar's feature items (the search box, Set Me Up), in order; the console's
 * entry point does, so that the shell imports no feature.
 */
export const ToolbarItemsProvider = ToolbarItemsContext.Provider;

export function useToolbarItems(): ComponentType[] {
  return useContext(ToolbarItemsContext);
}

import type { ReactNode } from 'react';
import { ListCellRegistryProvider } from '../engine/list/listCells';
import { ScreenRegistryProvider } from '../engine/screenRegistryContext';
import { listCellRegistry } from './listCells';
import { ToolbarItemsProvider } from '../shell/layout/toolbarItems';
import { screenRegistry } from './registry';
import { toolbarItems } from './toolbarItems';

/** What the features add to the shell and the engine: bespoke screens, list cells, toolbar items. */
export function ConsoleExtensions({ children }: { children: ReactNode }) {
  return (
    <ScreenRegistryProvider value={screenRegistry}>
      <ListCellRegistryProvider value={listCellRegistry}>
        <ToolbarItemsProvider value={toolbarItems}>{children}</ToolbarItemsProvider>
      </ListCellRegistryProvider>
    </ScreenRegistryProvider>
  );
}

import type { ReactNode } from 'react';
import { ScreenRegistryProvider } from '../engine/screenRegistryContext';
import { ToolbarItemsProvider } from '../shell/layout/toolbarItems';
import { screenRegistry } from './registry';
import { toolbarItems } from './toolbarItems';

/** What the features add to the shell and the engine: bespoke screens and toolbar items. */
export function ConsoleExtensions({ children }: { children: ReactNode }) {
  return (
    <ScreenRegistryProvider value={screenRegistry}>
      <ToolbarItemsProvider value={toolbarItems}>{children}</ToolbarItemsProvider>
    </ScreenRegistryProvider>
  );
}

import { createContext, useContext } from 'react';
import { createScreenRegistry, type ScreenRegistry } from './registry';

const ScreenRegistryContext = createContext<ScreenRegistry>(createScreenRegistry({}));

/** Supplies the bespoke screens to the routes below it (the console's entry point does). */
export const ScreenRegistryProvider = ScreenRegistryContext.Provider;

/** The bespoke screens a descriptor's `component` may name; none unless supplied. */
export function useScreenRegistry(): ScreenRegistry {
  return useContext(ScreenRegistryContext);
}

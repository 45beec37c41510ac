import type { ComponentType } from 'react';
import type { ScreenSummary, ScreenViewName } from '../api/descriptor';

/** A name→entry map whose lookups fail loudly, naming what was asked for. */
export interface Registry<T> {
  get(name: string): T;
  has(name: string): boolean;
  entries: Readonly<Record<string, T>>;
}

export function createRegistry<T>(kind: string, entries: Record<string, T>): Registry<T> {
  return {
    entries,
    has: (name) => Object.hasOwn(entries, name),
    get(name) {
      if (!Object.hasOwn(entries, name))
        throw new Error(`No ${kind} named "${name}" is registered`);
      return entries[name];
    },
  };
}

/** Props every bespoke screen component (descriptor `component`) receives. */
export interface ScreenComponentProps {
  /** The screen as the server lists it: title, route, pages, permission. */
  screen: ScreenSummary;
  /** Which page of the screen the path shows: its route is the list, a page says its own. */
  view: ScreenViewName;
}

export type ScreenComponent = ComponentType<ScreenComponentProps>;
export type ScreenRegistry = Registry<ScreenComponent>;

/**
 * The bespoke screens by the name a descriptor's `component` uses. The engine knows none:
 * the console's entry point supplies them (src/screens/registry.ts), each behind React.lazy
 * so that it loads with its screen only.
 */
export function createScreenRegistry(entries: Record<string, ScreenComponent>): ScreenRegistry {
  return createRegistry<ScreenComponent>('screen component', entries);
}

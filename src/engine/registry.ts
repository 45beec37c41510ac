import type { ComponentType } from 'react';
import type { ScreenDescriptor } from '../api/descriptor';

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

/** Props every custom screen component (descriptor `component`) receives. */
export interface ScreenComponentProps {
  descriptor: ScreenDescriptor;
  view: 'list' | 'new' | 'edit';
  entityKey?: string;
}

/**
 * Custom screens from src/custom/ register here by the name a descriptor's `component`
 * uses, each behind React.lazy so that it loads with its screen only. None exists yet.
 */
export function getScreenRegistry(): Registry<ComponentType<ScreenComponentProps>> {
  return createRegistry<ComponentType<ScreenComponentProps>>('screen component', {});
}

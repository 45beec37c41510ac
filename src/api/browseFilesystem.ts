import { call } from './client';

export interface BrowsedDirectory {
  name: string;
  path: string;
}

/** `GET /ui/browsefilesystem` (docs/backup.md, "Where backups may go"). */
export interface BrowseAnswer {
  /** The directory listed; null for the allowed directories themselves. */
  path: string | null;
  parent: string | null;
  roots: string[];
  directories: BrowsedDirectory[];
  truncated: boolean;
}

/** The directories under `path`, or the allowed directories without one. */
export function browseFilesystem(endpoint: string, path?: string | null): Promise<BrowseAnswer> {
  return call<BrowseAnswer>('GET', endpoint, {
    searchParams: path ? { path } : {},
    handledByCaller: () => true,
  });
}

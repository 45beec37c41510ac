import type { BrowseAnswer } from '../../server/modules/backups/browse-filesystem.ts';
import { call } from './client';

export type { BrowseAnswer };

/** The directories under `path`, or the allowed directories without one. */
export function browseFilesystem(endpoint: string, path?: string | null): Promise<BrowseAnswer> {
  return call<BrowseAnswer>('GET', endpoint, {
    searchParams: path ? { path } : {},
    handledByCaller: () => true,
  });
}

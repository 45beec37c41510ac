import type { NativeEntry } from '../../server/modules/tree-browser/native-routes.ts';
import { call } from './client';

export type { NativeEntry };

export interface NativeListing {
  repoKey: string;
  path: string;
  children: NativeEntry[];
  continueState?: string;
}

/** Spec 02 §7 `/ui/nativeBrowser`: a folder's children, a page at a time (docs/tree-browser.md). */
export const nativeBrowserApi = {
  list: (repoKey: string, path: string, continueState?: string) =>
    call<NativeListing>(
      'GET',
      `/ui/nativeBrowser/${[repoKey, ...path.split('/').filter(Boolean)].map(encodeURIComponent).join('/')}`,
      { searchParams: continueState ? { continueState } : {}, handledByCaller: () => true },
    ),
};

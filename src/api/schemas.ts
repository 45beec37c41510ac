import { call } from './client';
import type { DialogDescriptor, LoadedDescriptor, ScreenSummary } from './descriptor';

export const schemasApi = {
  listScreens: () => call<ScreenSummary[]>('GET', '/schemas/screens'),
  getScreen: (id: string) =>
    call<LoadedDescriptor>('GET', `/schemas/screens/${encodeURIComponent(id)}`),
  /** A bespoke screen's dialog form (`dialogs.<dialog>` of its descriptor). */
  getDialog: async (screen: string, dialog: string) => {
    const descriptor = await call<{ dialogs?: Record<string, DialogDescriptor> }>(
      'GET',
      `/schemas/screens/${encodeURIComponent(screen)}`,
    );
    const found = descriptor.dialogs?.[dialog];
    if (!found) throw new Error(`Screen '${screen}' has no dialog '${dialog}'`);
    return found;
  },
};

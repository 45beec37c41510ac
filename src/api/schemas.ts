import { call } from './client';
import type { LoadedDescriptor, ScreenSummary } from './descriptor';

export const schemasApi = {
  listScreens: () => call<ScreenSummary[]>('GET', '/schemas/screens'),
  getScreen: (id: string) =>
    call<LoadedDescriptor>('GET', `/schemas/screens/${encodeURIComponent(id)}`),
};

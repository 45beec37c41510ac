import { call } from './client';
import type { ScreenDescriptor, ScreenSummary } from './descriptor';

export const schemasApi = {
  listScreens: () => call<ScreenSummary[]>('GET', '/schemas/screens'),
  getScreen: (id: string) =>
    call<ScreenDescriptor>('GET', `/schemas/screens/${encodeURIComponent(id)}`),
};

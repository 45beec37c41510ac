import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { npmLoginApi, type NpmLoginRequest } from '../../api/npmLogin';

export const pageOpened = createEvent<string>();
export const approveClicked = createEvent();
export const denyClicked = createEvent();

const describeFx = createEffect((loginId: string) => npmLoginApi.describe(loginId));
const approveFx = createEffect((loginId: string) => npmLoginApi.approve(loginId));
const denyFx = createEffect((loginId: string) => npmLoginApi.deny(loginId));

const $loginId = createStore<string | null>(null).on(pageOpened, (_, id) => id);
export const $request = createStore<NpmLoginRequest | null>(null)
  .reset(pageOpened)
  .on(describeFx.doneData, (_, request) => request);
/** What came of it on this page: approved or denied. */
export const $outcome = createStore<'approved' | 'denied' | null>(null)
  .reset(pageOpened)
  .on(approveFx.done, () => 'approved')
  .on(denyFx.done, () => 'denied');
export const $error = createStore<string | null>(null)
  .reset(pageOpened)
  .on([describeFx.failData, approveFx.failData, denyFx.failData], (_, error) =>
    errorMessage(error),
  );
export const $busy = combine(approveFx.pending, denyFx.pending, (a, b) => a || b);

sample({ clock: pageOpened, target: describeFx });
sample({ clock: approveClicked, source: $loginId, filter: Boolean, target: approveFx });
sample({ clock: denyClicked, source: $loginId, filter: Boolean, target: denyFx });

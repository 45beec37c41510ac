import { createEffect, createEvent, createStore, sample } from 'effector';
import type { IssuedToken } from '../../api/profile';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { tokensApi, type TokenRequest, type TokenRow } from './api';
import { TOKEN_LABELS } from './messages';

export const pageOpened = createEvent();
export const generateSubmitted = createEvent<TokenRequest>();
export const revokeConfirmed = createEvent<string>();

export const listFx = createEffect(tokensApi.list);
export const createFx = createEffect(tokensApi.create);
export const revokeFx = createEffect(tokensApi.revoke);

export const $tokens = createStore<TokenRow[]>([]).on(listFx.doneData, (_, rows) => rows);
/** The token just made, shown once; gone when the page is left. */
export const $issued = createStore<IssuedToken | null>(null)
  .on(createFx.doneData, (_, token) => token)
  .reset(pageOpened, generateSubmitted);
export const $generateError = createStore<string | null>(null)
  .on(createFx.failData, (_, error) => errorMessage(error))
  .reset(generateSubmitted, pageOpened);

sample({ clock: [pageOpened, createFx.done, revokeFx.done], target: listFx });
sample({ clock: generateSubmitted, target: createFx });
sample({ clock: revokeConfirmed, target: revokeFx });
sample({
  clock: revokeFx.done,
  fn: () => ({ kind: 'success' as const, text: TOKEN_LABELS.revoked }),
  target: notificationShown,
});
sample({
  clock: [revokeFx.failData, listFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});

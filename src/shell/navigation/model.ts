import { createEffect } from 'effector';

export interface NavigationRequest {
  to: string;
  replace?: boolean;
  /** Remember where the user was, so that the login page can bring them back. */
  rememberCurrent?: boolean;
}

interface RouterLike {
  navigate(to: string, options?: { replace?: boolean; state?: unknown }): unknown;
  state: { location: { pathname: string; search: string } };
}

let router: RouterLike | undefined;

/** main.tsx hands the data router over once it exists; models navigate only through navigateFx. */
export function attachRouter(value: RouterLike): void {
  router = value;
}

/** State the login page reads to return to where the user was. */
export interface ReturnState {
  from?: string;
}

export const navigateFx = createEffect(({ to, replace, rememberCurrent }: NavigationRequest) => {
  if (!router) throw new Error('navigateFx ran before the router was attached');
  const { pathname, search } = router.state.location;
  const state: ReturnState | undefined = rememberCurrent ? { from: pathname + search } : undefined;
  return router.navigate(to, { replace, state }) as Promise<void>;
});

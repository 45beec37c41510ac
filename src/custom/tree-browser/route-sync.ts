import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { routeUpdate, treeHref, type TreeLocation } from './location';

/** Marks the history entries the tree writes itself, so it does not walk to them again. */
const WRITTEN_BY_TREE = { writtenByTree: true } as const;

function isWrittenByTree(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'writtenByTree' in state;
}

interface RouteSync {
  /** The route's browser, tab and path as rendered. */
  location: TreeLocation;
  /** The active node's id, null before there is one. */
  activeId: string | null;
  /** The tab to show: the route's, or General when the node has no such tab. */
  tab: string;
  /** Whether `tab` fell back to General, which replaces the route instead of pushing. */
  tabFellBack: boolean;
  /** Walks the tree to a path the route asks for. */
  requestPath: (path: string) => void;
}

/**
 * Keeps the route and the active node in step (spec 02 §2): the active node and tab are
 * written to the route, and a route the tree did not write itself (Back, Forward, a link)
 * is walked to.
 *
 * React Router renders a navigation in a transition, so a keystroke that moves the active
 * node can render before the route the previous keystroke wrote. Comparing with the
 * rendered route would then see "unchanged" and skip a write; the comparison is with the
 * route last written or seen instead.
 */
export function useRouteFollowsActiveNode({
  location,
  activeId,
  tab,
  tabFellBack,
  requestPath,
}: RouteSync): void {
  const navigate = useNavigate();
  const routerLocation = useLocation();
  const navigationType = useNavigationType();
  const lastRoute = useRef(location);
  const seenLocation = useRef(routerLocation);

  // Back, Forward or a link to another node: walk there. The first visit's walk is the
  // tree's mount, not this. Back can return to the entry already rendered, with its key,
  // when the route the tree wrote since was never rendered (a transition it overtook): the
  // router's location object is still new then, as its navigation type changed to POP.
  useEffect(() => {
    if (seenLocation.current === routerLocation) return;
    const newEntry = seenLocation.current.key !== routerLocation.key;
    seenLocation.current = routerLocation;
    if (!newEntry && navigationType !== 'POP') return;
    if (navigationType !== 'POP' && isWrittenByTree(routerLocation.state)) return;
    lastRoute.current = location;
    if (location.path !== activeId) requestPath(location.path);
    // Only a change of route is a request; the active node following it is not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [routerLocation]);

  useEffect(() => {
    if (!activeId) return;
    const current = lastRoute.current;
    const next = { ...current, path: activeId, tab };
    const how = routeUpdate(current, next);
    if (how === 'skip') return;
    lastRoute.current = next;
    navigate(treeHref(next), {
      replace: how === 'replace' || tabFellBack,
      state: WRITTEN_BY_TREE,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeId, tab]);
}

import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import {
  createPath,
  Router,
  useLocation,
  type Location,
  NavigationType,
  type Navigator,
  type To,
} from 'react-router-dom';
import { parseTreeSplat } from './location';
import { useRouteFollowsActiveNode } from './route-sync';

interface Written {
  how: 'push' | 'replace';
  to: string;
  state: unknown;
}

/** The hook on the tree's route, the route itself read from the router. */
function Probe({
  activeId,
  requestPath,
  offeredTabs,
}: {
  activeId: string | null;
  requestPath: (path: string) => void;
  /** The tabs the server offers for the active node, as the page reads them. */
  offeredTabs?: string[];
}) {
  const { pathname } = useLocation();
  const location = parseTreeSplat('tree', decodeURI(pathname).replace('/repos/tree/', ''));
  const tabFellBack = offeredTabs !== undefined && !offeredTabs.includes(location.tab);
  useRouteFollowsActiveNode({
    location,
    activeId,
    tab: tabFellBack ? 'General' : location.tab,
    tabFellBack,
    requestPath,
  });
  return null;
}

/**
 * A router whose rendered location changes only when the test says so, the way React Router
 * renders a navigation later, in a transition, than the keystroke that caused it.
 */
function laggingRouter(firstPath: string, offeredTabs?: string[]) {
  const written: Written[] = [];
  const pathOf = (to: To) => (typeof to === 'string' ? to : createPath(to));
  const navigator: Navigator = {
    createHref: pathOf,
    go: () => {},
    push: (to, state) => written.push({ how: 'push', to: pathOf(to), state }),
    replace: (to, state) => written.push({ how: 'replace', to: pathOf(to), state }),
  };
  let keys = 0;
  const locationAt = (pathname: string, state: unknown = null): Location => ({
    pathname,
    search: '',
    hash: '',
    state,
    key: `k${keys++}`,
  });
  const requestPath = vi.fn();
  let location = locationAt(firstPath);
  let navigationType = NavigationType.Pop;
  let activeId: string | null = null;
  const tree = () => (
    <Router location={location} navigator={navigator} navigationType={navigationType}>
      <Probe activeId={activeId} requestPath={requestPath} offeredTabs={offeredTabs} />
    </Router>
  );
  const view = render(tree());
  return {
    written,
    requestPath,
    /** The tree moves its active node. */
    activate(id: string) {
      activeId = id;
      view.rerender(tree());
    },
    /** The router renders a location: one the tree wrote, or one from elsewhere. */
    arrive(pathname: string, type: NavigationType, state: unknown = null) {
      location = locationAt(pathname, state);
      navigationType = type;
      view.rerender(tree());
      return location;
    },
    /** Back or Forward to an entry rendered before: the same entry, so the same key. */
    returnTo(entry: Location) {
      location = entry;
      navigationType = NavigationType.Pop;
      view.rerender(tree());
    },
  };
}

describe('the route following the active node', () => {
  it('writes each move even when the router has not rendered the previous one yet', () => {
    const router = laggingRouter('/repos/tree/General/docs-local/guides/intro');
    router.activate('docs-local/guides/intro');
    expect(router.written).toEqual([]);

    router.activate('docs-local/guides/intro/start.md');
    // the parent is active again before the router rendered the route to start.md
    router.activate('docs-local/guides/intro');
    expect(router.written.map(({ how, to }) => [how, to])).toEqual([
      ['push', '/repos/tree/General/docs-local/guides/intro/start.md'],
      ['push', '/repos/tree/General/docs-local/guides/intro'],
    ]);

    // the routes it wrote arriving late are not walked to
    const [toFile, toParent] = router.written;
    router.arrive(toFile.to, NavigationType.Push, toFile.state);
    router.arrive(toParent.to, NavigationType.Push, toParent.state);
    expect(router.requestPath).not.toHaveBeenCalled();
    expect(router.written).toHaveLength(2);
  });

  it('walks to a route it did not write: Back, or a link', () => {
    const router = laggingRouter('/repos/tree/General/docs-local/a');
    router.activate('docs-local/a');
    router.activate('docs-local/b');
    const [toB] = router.written;
    router.arrive(toB.to, NavigationType.Push, toB.state);

    router.arrive('/repos/tree/General/docs-local/a', NavigationType.Pop, toB.state);
    expect(router.requestPath).toHaveBeenLastCalledWith('docs-local/a');
    router.activate('docs-local/a');

    router.arrive('/repos/tree/General/libs-local/x.jar', NavigationType.Push);
    expect(router.requestPath).toHaveBeenLastCalledWith('libs-local/x.jar');
    router.activate('libs-local/x.jar');
    // the walks' ends are the routes already shown: nothing more is written
    expect(router.written).toHaveLength(1);
  });

  it('walks Back to the entry it shows when the route it wrote since was never rendered', () => {
    const router = laggingRouter('/repos/tree/General/docs-local/guides/intro');
    router.activate('docs-local/guides/intro');
    router.activate('docs-local/guides/intro/start.md');
    const [toFile] = router.written;
    const fileEntry = router.arrive(toFile.to, NavigationType.Push, toFile.state);
    // the parent is active again; Back comes before the router rendered the parent's route
    router.activate('docs-local/guides/intro');
    expect(router.written).toHaveLength(2);
    router.returnTo(fileEntry);
    expect(router.requestPath).toHaveBeenLastCalledWith('docs-local/guides/intro/start.md');
    router.activate('docs-local/guides/intro/start.md');
    expect(router.written).toHaveLength(2);
  });

  it('replaces a tab the node does not have with General', () => {
    const router = laggingRouter('/repos/tree/PomView/docs-local/readme.txt', [
      'General',
      'Properties',
    ]);
    router.activate('docs-local/readme.txt');
    expect(router.written.map(({ how, to }) => [how, to])).toEqual([
      ['replace', '/repos/tree/General/docs-local/readme.txt'],
    ]);
  });

  it('replaces a route that had no path yet', () => {
    const router = laggingRouter('/repos/tree/General');
    router.activate('big-local');
    expect(router.written.map(({ how, to }) => [how, to])).toEqual([
      ['replace', '/repos/tree/General/big-local'],
    ]);
  });
});

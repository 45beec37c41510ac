import { describe, expect, it } from 'vitest';
import { parseTreeSplat, routeUpdate, treeHref } from './location';

describe('tree route', () => {
  it('reads the tab and the artifact path, General when no tab is given', () => {
    expect(parseTreeSplat('tree', 'Properties/libs/org/a b.jar')).toEqual({
      browser: 'tree',
      tab: 'Properties',
      path: 'libs/org/a b.jar',
    });
    expect(parseTreeSplat('tree', '')).toEqual({ browser: 'tree', tab: 'General', path: '' });
    expect(parseTreeSplat(undefined, undefined).browser).toBe('tree');
  });

  it('encodes each segment and keeps the slashes', () => {
    expect(treeHref({ browser: 'tree', tab: 'General', path: 'libs/a b#1/%x.jar' })).toBe(
      '/repos/tree/General/libs/a%20b%231/%25x.jar',
    );
    expect(treeHref({ browser: 'tree', tab: 'General', path: '' })).toBe('/repos/tree/General');
  });

  it('skips an unchanged route, replaces one without a path and pushes otherwise', () => {
    const at = (path: string, tab = 'General') => ({ browser: 'tree', tab, path });
    expect(routeUpdate(at('libs'), at('libs'))).toBe('skip');
    expect(routeUpdate(at(''), at('libs'))).toBe('replace');
    expect(routeUpdate(at('libs'), at('libs/org'))).toBe('push');
    expect(routeUpdate(at('libs'), at('libs', 'Properties'))).toBe('push');
  });
});

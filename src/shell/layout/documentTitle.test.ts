import { describe, expect, it } from 'vitest';
import type { UIMatch } from 'react-router-dom';
import { composeDocumentTitle, deepestTitle } from './documentTitle';

const match = (handle: unknown) => ({ handle }) as UIMatch;
const context = { pathname: '/x', screens: [], descriptors: {} };

describe('document title', () => {
  it('takes the deepest route that has a title', () => {
    expect(
      deepestTitle(
        [match({ title: 'Outer' }), match({ title: 'Inner' }), match(undefined)],
        context,
      ),
    ).toBe('Inner');
  });

  it('computes titles of descriptor routes from the context', () => {
    expect(
      deepestTitle(
        [match({ title: ({ pathname }: { pathname: string }) => `At ${pathname}` })],
        context,
      ),
    ).toBe('At /x');
  });

  it('appends the server name', () => {
    expect(composeDocumentTitle('Users', 'depot-1', 'Depot')).toBe('Users - depot-1');
    expect(composeDocumentTitle('Users', undefined, 'Depot')).toBe('Users');
    expect(composeDocumentTitle(undefined, undefined, 'Depot')).toBe('Depot');
    expect(composeDocumentTitle(undefined, 'depot-1', 'Depot')).toBe('depot-1');
  });
});

import { describe, expect, it } from 'vitest';
import { withArchiveFallback } from '../search/query';
import { archiveQueryOf, defaultRange, rangeMillis } from './range';

describe('the archive pages', () => {
  it('ranges a month back from the start of that day through the end of today', () => {
    const range = defaultRange(new Date(2026, 2, 15, 10, 30));
    expect(range).toEqual({ from: '2026-02-15', to: '2026-03-15' });
    const millis = rangeMillis(range)!;
    expect(new Date(millis.from)).toEqual(new Date(2026, 1, 15, 0, 0, 0, 0));
    expect(new Date(millis.to)).toEqual(new Date(2026, 2, 15, 23, 59, 59, 999));
  });

  it('sends no request for a date that is not one, or a range that ends before it starts', () => {
    expect(rangeMillis({ from: '', to: '2026-03-15' })).toBeUndefined();
    expect(rangeMillis({ from: '2026-03-16', to: '2026-03-15' })).toBeUndefined();
  });

  it('takes the toolbar text as AQL, or as a name with wildcards around it', () => {
    expect(archiveQueryOf('items.find({"repo":"libs"})')).toBe('items.find({"repo":"libs"})');
    expect(archiveQueryOf('app "x')).toBe('items.find({"name":{"$match":"*app \\"x*"}})');
    expect(archiveQueryOf('app-*.jar')).toBe('items.find({"name":{"$match":"app-*.jar"}})');
  });

  it('falls back to Quick when the archive is not indexed for the user', () => {
    const asked = { searchType: 'archive' as const, name: 'app' };
    expect(withArchiveFallback(asked, false)).toEqual({ searchType: 'quick', name: 'app' });
    expect(withArchiveFallback(asked, true)).toEqual(asked);
  });
});

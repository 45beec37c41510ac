import { allSettled, fork } from 'effector';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissLaterFx } from '../../shell/notifications/model';
import { $projects, $selectedProjectKey, projectSelected } from '../../shell/project/model';
import type { Project } from '../../api/projects';
import { $currentUser } from '../../shell/session/model';
import type { SearchPage, SearchResult } from './api';
import {
  $continueState,
  $params,
  $recent,
  $results,
  allFx,
  allRequested,
  moreFx,
  moreRequested,
  searchFx,
  searchRouted,
  searchSubmitted,
} from './model';
import { fromQueryString, isChecksumLength, parseSearchText, toQueryString } from './query';
import { describeSearch, loadRecentSearches, RECENT_SEARCHES_CAP } from './recent';

const row = (name: string): SearchResult => ({
  repoKey: 'libs',
  path: `a/${name}`,
  name,
  modifiedDate: 0,
});
const page = (names: string[], continueState?: string): SearchPage => ({
  results: names.map(row),
  hasMore: continueState !== undefined,
  ...(continueState ? { continueState } : {}),
});

describe('the query string', () => {
  it('round-trips a search, with the spec names for filters', () => {
    const params = {
      searchType: 'class' as const,
      name: 'StringTool',
      path: 'org/acme',
      excludeInnerClasses: true,
      repo: ['libs', 'more'],
    };
    const text = toQueryString(params);
    expect(text).toBe(
      'searchType=class&name=StringTool&path=org%2Facme&excludeInnerClasses=true&repo=libs%2Cmore',
    );
    expect(fromQueryString(`?${text}`)).toEqual(params);
  });

  it('defaults to the quick search and ignores unknown types', () => {
    expect(fromQueryString('?name=x')).toEqual({ searchType: 'quick', name: 'x' });
    expect(fromQueryString('?searchType=nope&name=x').searchType).toBe('quick');
  });
});

describe('the toolbar text (spec 02 §5)', () => {
  it('splits terms by spaces, groups quotes, and reads key:value only for known keys', () => {
    expect(parseSearchText('repo:libs "my lib" version:1.0 colour:red')).toEqual({
      repo: ['libs'],
      version: '1.0',
      name: 'my lib colour:red',
    });
    expect(parseSearchText('  ')).toEqual({});
  });

  it('knows checksum lengths', () => {
    expect(['a'.repeat(32), 'a'.repeat(40), 'a'.repeat(64)].every(isChecksumLength)).toBe(true);
    expect(isChecksumLength('abc')).toBe(false);
  });
});

describe('the search model', () => {
  it('runs the routed search, pages on, and fetches everything on demand', async () => {
    const search = vi.fn(async () => page(['a', 'b'], '2'));
    const more = vi.fn(async () => page(['c'], '3'));
    const rest = vi.fn(async () => [row('d'), row('e')]);
    const scope = fork({
      handlers: [
        [searchFx, search],
        [moreFx, more],
        [allFx, rest],
      ],
    });
    await allSettled(searchRouted, { scope, params: { searchType: 'quick', name: 'x' } });
    expect(scope.getState($results).map((r) => r.name)).toEqual(['a', 'b']);
    expect(scope.getState($continueState)).toBe('2');
    await allSettled(moreRequested, { scope });
    expect(search).toHaveBeenCalledWith({
      params: { searchType: 'quick', name: 'x' },
      projectKey: null,
    });
    expect(more).toHaveBeenCalledWith({
      params: { searchType: 'quick', name: 'x' },
      continueState: '2',
      projectKey: null,
    });
    await allSettled(allRequested, { scope });
    expect(scope.getState($results).map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(scope.getState($continueState)).toBeNull();
  });

  it('searches in the selected project’s context', async () => {
    const search = vi.fn(async () => page(['a']));
    const scope = fork({
      handlers: [[searchFx, search]],
      values: [
        [$projects, [{ project_key: 'web', display_name: 'Web' } as Project]],
        [$selectedProjectKey, 'web'],
      ],
    });
    await allSettled(searchRouted, { scope, params: { searchType: 'quick', name: 'x' } });
    expect(search).toHaveBeenCalledWith({
      params: { searchType: 'quick', name: 'x' },
      projectKey: 'web',
    });
  });

  it('empties the results when a search fails, and clears the model on project change', async () => {
    const scope = fork({
      handlers: [[searchFx, async () => page(['a'])]],
      values: [[$results, [row('old')]]],
    });
    await allSettled(searchRouted, { scope, params: { searchType: 'quick', name: 'x' } });
    await allSettled(projectSelected, { scope, params: 'other' });
    expect(scope.getState($results)).toEqual([]);
    expect(scope.getState($params)).toBeNull();
    const failing = fork({
      handlers: [
        [searchFx, async () => Promise.reject(new Error('down'))],
        // The error's notification would stay ten seconds: dismissed at once here.
        [dismissLaterFx, async () => 0],
      ],
      values: [[$results, [row('old')]]],
    });
    await allSettled(searchRouted, { scope: failing, params: { searchType: 'quick', name: 'x' } });
    expect(failing.getState($results)).toEqual([]);
  });
});

describe('recent searches', () => {
  beforeEach(() => localStorage.clear());

  it('keeps them per user, most recent first, without repeats, capped', async () => {
    const scope = fork({
      values: [[$currentUser, { name: 'jo', admin: false, anonymous: false }]],
    });
    for (const name of ['a', 'b', 'a'])
      await allSettled(searchSubmitted, { scope, params: { searchType: 'quick', name } });
    expect(scope.getState($recent).map(describeSearch)).toEqual(['quick: a', 'quick: b']);
    expect(loadRecentSearches('jo').map(describeSearch)).toEqual(['quick: a', 'quick: b']);
    expect(loadRecentSearches('someone-else')).toEqual([]);
    for (let i = 0; i < 20; i++)
      await allSettled(searchSubmitted, { scope, params: { searchType: 'quick', name: `n${i}` } });
    expect(loadRecentSearches('jo')).toHaveLength(RECENT_SEARCHES_CAP);
  });

  it('treats an unreadable stored value as none', () => {
    localStorage.setItem('depot.search.recent.jo', '{not json');
    expect(loadRecentSearches('jo')).toEqual([]);
  });
});

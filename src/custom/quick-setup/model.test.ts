import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { QuickSetupResult } from '../../api/onboarding';
import { navigateFx } from '../../shell/navigation/model';
import { $offerQuickSetup } from '../../shell/onboarding/model';
import { ADMIN_HOME_PATH } from '../../shell/messages';
import {
  $error,
  $plan,
  $step,
  createClicked,
  createReposFx,
  fetchTypesFx,
  nextClicked,
  pageMounted,
  prefixChanged,
  skipClicked,
  skipFx,
  typeToggled,
  upstreamChanged,
} from './model';

const TYPES = [
  { packageType: 'npm', label: 'npm', state: 'UNSET', upstreamUrl: 'http://npm.example' },
  { packageType: 'pypi', label: 'PyPI', state: 'UNSET', upstreamUrl: '' },
] as const;

type Create = (request: unknown) => Promise<QuickSetupResult>;

function setup(create = vi.fn<Create>(async () => ({ info: 'ok', repositories: [] }))) {
  const navigate = vi.fn();
  const skip = vi.fn(async () => ({ quickSetup: 'skipped', offerQuickSetup: false }));
  const scope = fork({
    handlers: [
      [fetchTypesFx, async () => ({ repoStates: TYPES })],
      [createReposFx, create],
      [skipFx, skip],
      [navigateFx, navigate],
    ],
    values: [[$offerQuickSetup, true]],
  });
  return { scope, navigate, create, skip };
}

describe('the quick setup page', () => {
  it('goes to naming only with a type selected', async () => {
    const { scope } = setup();
    await allSettled(pageMounted, { scope });
    await allSettled(nextClicked, { scope });
    expect(scope.getState($step)).toBe('select');
    await allSettled(typeToggled, { scope, params: 'npm' });
    await allSettled(nextClicked, { scope });
    expect(scope.getState($step)).toBe('name');
  });

  it('creates every type in one call, in the catalogue order, with the upstreams as edited', async () => {
    const { scope, create } = setup(
      vi.fn<Create>(async () => ({
        info: 'All repositories were created successfully',
        repositories: [{ key: 'team-npm-local', rclass: 'local' as const, packageType: 'npm' }],
      })),
    );
    await allSettled(pageMounted, { scope });
    await allSettled(typeToggled, { scope, params: 'pypi' });
    await allSettled(typeToggled, { scope, params: 'npm' });
    await allSettled(nextClicked, { scope });
    await allSettled(prefixChanged, { scope, params: ' team ' });
    await allSettled(upstreamChanged, {
      scope,
      params: { packageType: 'pypi', url: 'http://pypi.example' },
    });
    expect(scope.getState($plan).map((repo) => repo.key)).toEqual([
      'team-npm-local',
      'team-npm-remote',
      'team-npm-virtual',
      'team-pypi-local',
      'team-pypi-remote',
      'team-pypi-virtual',
    ]);
    await allSettled(createClicked, { scope });
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith({
      prefix: 'team',
      packageTypes: [
        { packageType: 'npm', upstreamUrl: 'http://npm.example' },
        { packageType: 'pypi', upstreamUrl: 'http://pypi.example' },
      ],
    });
    expect(scope.getState($step)).toBe('done');
    // Done: an admin's landing is the topology from now on.
    expect(scope.getState($offerQuickSetup)).toBe(false);
  });

  it("shows the server's refusal (the clash it names) and stays on the form", async () => {
    const clash = new ApiError({
      message: '409',
      status: 409,
      method: 'POST',
      url: '/ui/api/v1/ui/onboarding/createDefaultRepos',
      body: { errors: [{ status: 409, message: "Repository 'team-npm-local' already exists" }] },
    });
    const { scope } = setup(vi.fn<Create>(() => Promise.reject(clash)));
    await allSettled(pageMounted, { scope });
    await allSettled(typeToggled, { scope, params: 'npm' });
    await allSettled(nextClicked, { scope });
    await allSettled(prefixChanged, { scope, params: 'team' });
    await allSettled(createClicked, { scope });
    expect(scope.getState($error)).toBe("Repository 'team-npm-local' already exists");
    expect(scope.getState($step)).toBe('name');
    expect(scope.getState($offerQuickSetup)).toBe(true);
  });

  it('records a skip and goes to the topology', async () => {
    const { scope, skip, navigate } = setup();
    await allSettled(pageMounted, { scope });
    await allSettled(skipClicked, { scope });
    expect(skip).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith({ to: ADMIN_HOME_PATH });
    expect(scope.getState($offerQuickSetup)).toBe(false);
  });
});

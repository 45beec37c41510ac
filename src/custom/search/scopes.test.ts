import { describe, expect, it } from 'vitest';
import { availableScopes, DEPOT_SCOPE_CONDITIONS, type ScopeConditions } from './scopes';
import { toolbarSearchTarget } from './toolbarTargets';

const none = { distribution: false, scanning: false, pipelines: false };
const full: ScopeConditions = {
  admin: true,
  services: { distribution: true, scanning: true, pipelines: true },
  coldStorage: true,
  lightweight: false,
};

describe("the toolbar's search scopes (spec 01 §2 availability)", () => {
  it('offers Depot today packages, artifacts, builds, and the archive to administrators', () => {
    expect(availableScopes({ ...DEPOT_SCOPE_CONDITIONS, admin: true })).toEqual([
      'packages',
      'artifacts',
      'builds',
      'archive',
    ]);
    expect(availableScopes({ ...DEPOT_SCOPE_CONDITIONS, admin: false })).toEqual([
      'packages',
      'artifacts',
      'builds',
    ]);
  });

  it("offers each companion service's scope only while it runs", () => {
    expect(availableScopes(full)).toEqual([
      'packages',
      'artifacts',
      'builds',
      'releaseBundles',
      'securityCompliance',
      'archive',
      'pipelines',
    ]);
    expect(availableScopes({ ...full, services: { ...none, scanning: true } })).toContain(
      'securityCompliance',
    );
    expect(availableScopes({ ...full, services: none })).not.toContain('releaseBundles');
    expect(availableScopes({ ...full, coldStorage: false })).not.toContain('archive');
  });

  it('hides packages, builds, release bundles and the archive on a lightweight instance', () => {
    expect(availableScopes({ ...full, lightweight: true })).toEqual([
      'artifacts',
      'securityCompliance',
      'pipelines',
    ]);
  });
});

describe("where the toolbar's search goes", () => {
  it('opens each scope Depot serves with the text, and nothing for an empty text', () => {
    expect(toolbarSearchTarget('packages', 'lodash', false)?.to).toBe('/packages?name=lodash');
    expect(toolbarSearchTarget('builds', 'app', false)?.to).toBe('/builds?name=app');
    const artifacts = toolbarSearchTarget('artifacts', 'lodash', false);
    expect(artifacts?.to).toMatch(/^\/artifactSearchResults\?/);
    expect(artifacts?.artifactSearch).toMatchObject({ name: 'lodash', searchType: 'quick' });
    expect(toolbarSearchTarget('archive', 'lodash', true)?.to).toMatch(
      /^\/artifactoryRetention\/search\?aql=/,
    );
    expect(toolbarSearchTarget('packages', '  ', false)).toBeUndefined();
    expect(toolbarSearchTarget('pipelines', 'lodash', true)).toBeUndefined();
  });
});

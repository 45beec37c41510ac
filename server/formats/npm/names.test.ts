import { describe, expect, it } from 'vitest';
import { parseNpmPath, tarballPath, versionOfTarball } from './names.ts';
import { liveTags, rewriteUpstreamTarballs, TARBALL_BASE } from './packument.ts';

describe('npm paths', () => {
  it('reads scoped names escaped the npm way and plain', () => {
    expect(parseNpmPath('@acme%2ftool')).toEqual({ name: '@acme/tool', rest: [] });
    expect(parseNpmPath('@acme/tool/-/tool-1.0.0.tgz')).toEqual({
      name: '@acme/tool',
      rest: ['-', 'tool-1.0.0.tgz'],
    });
    expect(parseNpmPath('%40acme%2Ftool/latest?write=true')).toEqual({
      name: '@acme/tool',
      rest: ['latest'],
    });
  });

  it('places tarballs as the npm registry does', () => {
    expect(tarballPath('@acme/tool', '1.0.0')).toBe('@acme/tool/-/tool-1.0.0.tgz');
    expect(versionOfTarball('@acme/tool', 'tool-1.0.0-beta.1.tgz')).toBe('1.0.0-beta.1');
    expect(versionOfTarball('@acme/tool', 'other-1.0.0.tgz')).toBeUndefined();
  });
});

describe('packuments', () => {
  it('keeps the tags whose version is there, latest on the highest release otherwise', () => {
    expect(liveTags({ latest: '2.0.0', beta: '1.1.0-beta.1' }, ['1.0.0', '1.1.0-beta.1'])).toEqual({
      latest: '1.0.0',
      beta: '1.1.0-beta.1',
    });
  });

  it('points upstream tarball URLs at the serving repository', () => {
    const upstream = '{"dist":{"tarball":"https://registry.example/@acme/tool/-/tool-1.0.0.tgz"}}';
    expect(rewriteUpstreamTarballs(upstream, '@acme/tool')).toBe(
      `{"dist":{"tarball":"${TARBALL_BASE}/@acme/tool/-/tool-1.0.0.tgz"}}`,
    );
  });
});

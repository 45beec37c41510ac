import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../catalogue/catalogue.ts';
import {
  compareVersions,
  FORMATS,
  formatOf,
  INDEXED_PACKAGE_TYPES,
  isPreRelease,
} from './registry.ts';

const ascending = (type: string, versions: string[]) =>
  [...versions].sort((a, b) => compareVersions(type, a, b));

describe('the format registry', () => {
  it('gives each package type of the catalogue at most one format', () => {
    const catalogued = new Set(loadCatalogue().packageTypes.map((type) => type.value));
    const served = FORMATS.flatMap((format) => format.packageTypes);
    expect(served.filter((type) => !catalogued.has(type))).toEqual([]);
    expect(new Set(served).size).toBe(served.length);
    expect([...INDEXED_PACKAGE_TYPES].sort()).toEqual([
      'docker',
      'gradle',
      'ivy',
      'maven',
      'npm',
      'pypi',
      'sbt',
    ]);
    expect(formatOf('gradle')?.name).toBe('maven');
    expect(formatOf('docker')?.name).toBe('docker');
    expect(formatOf('generic')).toBeUndefined();
  });

  it("orders versions and finds pre-releases as each format's clients do", () => {
    expect(ascending('npm', ['1.0.0', '1.0.0-beta.2', '0.9.1', '1.0.0-beta.10'])).toEqual([
      '0.9.1',
      '1.0.0-beta.2',
      '1.0.0-beta.10',
      '1.0.0',
    ]);
    expect(ascending('maven', ['1.10', '1.0', '1.2', '1.0-rc1'])).toEqual([
      '1.0-rc1',
      '1.0',
      '1.2',
      '1.10',
    ]);
    expect(ascending('gradle', ['2.0', '2.0-SNAPSHOT'])).toEqual(['2.0-SNAPSHOT', '2.0']);
    expect(ascending('generic', ['1.10', '1.9', '1.9.1'])).toEqual(['1.9', '1.9.1', '1.10']);
    expect(isPreRelease('npm', '2.0.0-rc.1')).toBe(true);
    expect(isPreRelease('maven', '2.0-SNAPSHOT')).toBe(true);
    expect(isPreRelease('sbt', '2.0-SNAPSHOT')).toBe(true);
    expect(isPreRelease('pypi', '2.0rc1')).toBe(true);
    expect(isPreRelease('pypi', '2.0')).toBe(false);
    expect(isPreRelease('generic', '2.0.0-alpha')).toBe(true);
  });

  it('marks the formats whose stored documents are edited after deploy', () => {
    expect(FORMATS.filter((format) => format.keepsEditedDocuments).map((f) => f.name)).toEqual([
      'npm',
    ]);
  });
});

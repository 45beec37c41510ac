import { describe, expect, it } from 'vitest';
import { metadataFolder, parseMavenPath } from './layout.ts';
import { compareMavenVersions } from './version-order.ts';

describe('the Maven 2 layout', () => {
  it('reads releases, classifiers and unique snapshot builds', () => {
    expect(parseMavenPath('org/acme/app/1.0/app-1.0-sources.jar')).toEqual({
      groupId: 'org.acme',
      artifactId: 'app',
      version: '1.0',
      filename: 'app-1.0-sources.jar',
      snapshotBuild: undefined,
      classifier: 'sources',
      extension: 'jar',
    });
    expect(
      parseMavenPath('org/acme/app/2.0-SNAPSHOT/app-2.0-20261103.090000-3.tar.gz'),
    ).toMatchObject({
      version: '2.0-SNAPSHOT',
      snapshotBuild: { timestamp: '20261103.090000', buildNumber: 3 },
      classifier: undefined,
      extension: 'tar.gz',
    });
  });

  it('refuses what is not an artifact of its folder', () => {
    expect(parseMavenPath('org/acme/app/1.0/other-1.0.jar')).toBeUndefined();
    expect(parseMavenPath('org/acme/app/1.0/app-1.1.jar')).toBeUndefined();
    expect(parseMavenPath('app/1.0/app-1.0.jar')).toBeUndefined();
    expect(parseMavenPath('org/acme/app/maven-metadata.xml')).toBeUndefined();
  });

  it('finds the folder of artifact and snapshot metadata', () => {
    expect(metadataFolder('org/acme/app/maven-metadata.xml')).toBe('org/acme/app');
    expect(metadataFolder('maven-metadata.xml')).toBeUndefined();
    expect(metadataFolder('org/acme/app/other.xml')).toBeUndefined();
  });
});

describe("Maven's version order", () => {
  it('orders numbers as numbers and qualifiers before releases', () => {
    const sorted = [
      '1.10',
      '1.0-rc1',
      '1.2',
      '1.0',
      '1.0-alpha-2',
      '1.0-SNAPSHOT',
      '1.0-sp1',
      '1.0-beta',
    ].sort(compareMavenVersions);
    expect(sorted).toEqual([
      '1.0-alpha-2',
      '1.0-beta',
      '1.0-rc1',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0-sp1',
      '1.2',
      '1.10',
    ]);
    expect(compareMavenVersions('1.0.0', '1')).toBe(0);
    expect(compareMavenVersions('1.0.1', '1.0-rc')).toBe(1);
  });
});

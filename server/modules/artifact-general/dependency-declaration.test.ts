import { describe, expect, it } from 'vitest';
import {
  dependencyDeclaration,
  parseMavenPath,
  parseNpmTarballPath,
} from './dependency-declaration.ts';

const JAR = 'org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar';
const SOURCES = 'org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0-sources.jar';
const TARBALL = 'com/acme/dist/2.0/dist-2.0-linux-x64.tar.gz';

describe('Maven-layout paths', () => {
  it('reads group, artifact, version, classifier and extension', () => {
    expect(parseMavenPath(JAR)).toEqual({
      groupId: 'org.apache.commons',
      artifactId: 'commons-lang3',
      version: '3.14.0',
      extension: 'jar',
    });
    expect(parseMavenPath(SOURCES)).toMatchObject({ classifier: 'sources', extension: 'jar' });
    expect(parseMavenPath(TARBALL)).toMatchObject({
      groupId: 'com.acme',
      classifier: 'linux-x64',
      extension: 'tar.gz',
    });
  });

  it('reads a unique snapshot as its folder version', () => {
    expect(parseMavenPath('g/a/1.0-SNAPSHOT/a-1.0-20240102.030405-7.pom')).toMatchObject({
      version: '1.0-SNAPSHOT',
      extension: 'pom',
    });
  });

  it('refuses paths that are not a Maven layout', () => {
    for (const path of [
      'readme.txt',
      'a/1.0/a-1.0.jar', // no group
      'g/a/1.0/b-1.0.jar', // another artifact's name
      'g/a/1.0/a-2.0.jar', // another version
      'g/a/1.0/a-1.0', // no extension
      'g/a/1.0-SNAPSHOT/a-1.0-nope.jar',
      "g/a'b/1.0/a'b-1.0.jar", // a quote no build file should receive
      'lodash/-/lodash-4.17.21.tgz',
    ]) {
      expect(parseMavenPath(path), path).toBeUndefined();
    }
  });
});

describe('npm tarball paths', () => {
  it('reads plain and scoped packages', () => {
    expect(parseNpmTarballPath('lodash/-/lodash-4.17.21.tgz')).toEqual({
      name: 'lodash',
      version: '4.17.21',
    });
    expect(parseNpmTarballPath('@types/node/-/node-20.1.0-beta.1.tgz')).toEqual({
      name: '@types/node',
      version: '20.1.0-beta.1',
    });
  });

  it('refuses what is not a tarball of its own package', () => {
    for (const path of [
      'lodash/lodash-4.17.21.tgz',
      'lodash/-/underscore-1.0.0.tgz',
      'lodash/-/lodash-latest.tgz',
      'lodash/-/lodash-4.17.21.zip',
      '@types/-/node-1.0.0.tgz',
      JAR,
    ]) {
      expect(parseNpmTarballPath(path), path).toBeUndefined();
    }
  });
});

describe('declarations', () => {
  it('writes each build tool its own snippet', () => {
    expect(dependencyDeclaration('maven', JAR)).toBe(
      [
        '<dependency>',
        '    <groupId>org.apache.commons</groupId>',
        '    <artifactId>commons-lang3</artifactId>',
        '    <version>3.14.0</version>',
        '</dependency>',
      ].join('\n'),
    );
    expect(dependencyDeclaration('gradle', JAR)).toBe(
      "implementation 'org.apache.commons:commons-lang3:3.14.0'",
    );
    expect(dependencyDeclaration('ivy', JAR)).toBe(
      '<dependency org="org.apache.commons" name="commons-lang3" rev="3.14.0" />',
    );
    expect(dependencyDeclaration('sbt', JAR)).toBe(
      'libraryDependencies += "org.apache.commons" % "commons-lang3" % "3.14.0"',
    );
    expect(dependencyDeclaration('npm', '@types/node/-/node-20.1.0.tgz')).toBe(
      'npm install @types/node@20.1.0',
    );
  });

  it('names a classifier and a type other than jar', () => {
    expect(dependencyDeclaration('maven', TARBALL)).toContain(
      '    <classifier>linux-x64</classifier>\n    <type>tar.gz</type>\n',
    );
    expect(dependencyDeclaration('gradle', TARBALL)).toBe(
      "implementation 'com.acme:dist:2.0:linux-x64@tar.gz'",
    );
    expect(dependencyDeclaration('ivy', SOURCES)).toContain(
      '<artifact name="commons-lang3" type="jar" ext="jar" m:classifier="sources" />',
    );
    expect(dependencyDeclaration('sbt', SOURCES)).toMatch(/ classifier "sources"$/);
    expect(dependencyDeclaration('sbt', TARBALL)).toMatch(
      / artifacts\(Artifact\("dist", "tar.gz", "tar.gz", "linux-x64"\)\)$/,
    );
  });

  it('has none for a path its tool does not read', () => {
    expect(dependencyDeclaration('npm', JAR)).toBeUndefined();
    expect(dependencyDeclaration('maven', 'lodash/-/lodash-4.17.21.tgz')).toBeUndefined();
  });
});

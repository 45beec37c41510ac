import { SNIPPET_SECRET, SNIPPET_USERNAME } from './placeholders.ts';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

export interface MavenChoice {
  release: string;
  snapshot: string;
  pluginRelease: string;
  pluginSnapshot: string;
  mirror?: string;
  useMirror?: boolean;
}

const repositoryXml = (tag: string, id: string, key: string, base: string, snapshots: boolean) =>
  [
    `        <${tag}>`,
    `          <id>${escapeXml(id)}</id>`,
    `          <name>${escapeXml(key)}</name>`,
    `          <url>${escapeXml(`${base}/${key}`)}</url>`,
    `          <snapshots><enabled>${snapshots}</enabled></snapshots>`,
    `          <releases><enabled>${!snapshots}</enabled></releases>`,
    `        </${tag}>`,
  ].join('\n');

const server = (id: string) =>
  [
    '    <server>',
    `      <id>${id}</id>`,
    `      <username>${SNIPPET_USERNAME}</username>`,
    `      <password>${SNIPPET_SECRET}</password>`,
    '    </server>',
  ].join('\n');

/** settings.xml resolving releases, snapshots and plugins from Depot (Set Me Up, Maven). */
export function mavenSettingsXml(base: string, choice: MavenChoice): string {
  const mirror = choice.useMirror && choice.mirror;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0"',
    '          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '          xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.2.0 https://maven.apache.org/xsd/settings-1.2.0.xsd">',
    '  <servers>',
    server('central'),
    server('snapshots'),
    ...(mirror ? [server('depot-mirror')] : []),
    '  </servers>',
    ...(mirror
      ? [
          '  <mirrors>',
          '    <mirror>',
          '      <id>depot-mirror</id>',
          `      <url>${escapeXml(`${base}/${mirror}`)}</url>`,
          '      <mirrorOf>*</mirrorOf>',
          '    </mirror>',
          '  </mirrors>',
        ]
      : []),
    '  <profiles>',
    '    <profile>',
    '      <id>depot</id>',
    '      <repositories>',
    repositoryXml('repository', 'central', choice.release, base, false),
    repositoryXml('repository', 'snapshots', choice.snapshot, base, true),
    '      </repositories>',
    '      <pluginRepositories>',
    repositoryXml('pluginRepository', 'central', choice.pluginRelease, base, false),
    repositoryXml('pluginRepository', 'snapshots', choice.pluginSnapshot, base, true),
    '      </pluginRepositories>',
    '    </profile>',
    '  </profiles>',
    '  <activeProfiles>',
    '    <activeProfile>depot</activeProfile>',
    '  </activeProfiles>',
    '</settings>',
    '',
  ].join('\n');
}

/** The pom.xml section that deploys to Depot (mavenDistributionManagement). */
export function distributionManagementXml(base: string, releases: string, snapshots: string) {
  return [
    '<distributionManagement>',
    '  <repository>',
    '    <id>central</id>',
    `    <name>${escapeXml(releases)}</name>`,
    `    <url>${escapeXml(`${base}/${releases}`)}</url>`,
    '  </repository>',
    '  <snapshotRepository>',
    '    <id>snapshots</id>',
    `    <name>${escapeXml(snapshots)}</name>`,
    `    <url>${escapeXml(`${base}/${snapshots}`)}</url>`,
    '  </snapshotRepository>',
    '</distributionManagement>',
    '',
  ].join('\n');
}

export interface GradleChoice {
  pluginResolver: string;
  libsResolver: string;
  libsPublisher: string;
}

/** build.gradle and gradle.properties resolving and publishing through Depot. */
export function gradleSettings(base: string, choice: GradleChoice) {
  const repo = (key: string) =>
    [
      '    maven {',
      `        url "${base}/${key}"`,
      '        credentials {',
      '            username = "${depotUser}"',
      '            password = "${depotPassword}"',
      '        }',
      '    }',
    ].join('\n');
  const buildGradle = [
    'pluginManagement {',
    '  repositories {',
    repo(choice.pluginResolver).replace(/^/gm, '  '),
    '  }',
    '}',
    '',
    'repositories {',
    repo(choice.libsResolver),
    '}',
    '',
    "apply plugin: 'maven-publish'",
    'publishing {',
    '    repositories {',
    repo(choice.libsPublisher).replace(/^/gm, '    '),
    '    }',
    '}',
    '',
  ].join('\n');
  const gradleProperties = [
    `depotUser=${SNIPPET_USERNAME}`,
    `depotPassword=${SNIPPET_SECRET}`,
    `depotContextUrl=${base}`,
    '',
  ].join('\n');
  return { buildGradle, gradleProperties };
}

export interface IvyChoice {
  libsRepository: string;
  /** Maven 2 layout (m2compatible) rather than Ivy's own. */
  m2Compatible: boolean;
}

/** ivysettings.xml resolving from Depot. */
export function ivySettingsXml(base: string, host: string, choice: IvyChoice) {
  const pattern = choice.m2Compatible
    ? '[organisation]/[module]/[revision]/[artifact]-[revision](-[classifier]).[ext]'
    : '[organization]/[module]/[revision]/[type]s/[module](-[classifier])-[revision].[ext]';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ivy-settings>',
    '  <settings defaultResolver="main"/>',
    `  <credentials host="${escapeXml(host)}" realm="Depot" username="${SNIPPET_USERNAME}" passwd="${SNIPPET_SECRET}"/>`,
    '  <resolvers>',
    '    <chain name="main">',
    `      <url name="${escapeXml(choice.libsRepository)}" m2compatible="${choice.m2Compatible}">`,
    `        <artifact pattern="${escapeXml(`${base}/${choice.libsRepository}/${pattern}`)}"/>`,
    `        <ivy pattern="${escapeXml(`${base}/${choice.libsRepository}/${pattern.replace('[artifact]', 'ivy').replace('.[ext]', '.xml')}`)}"/>`,
    '      </url>',
    '    </chain>',
    '  </resolvers>',
    '</ivy-settings>',
    '',
  ].join('\n');
}

import { XMLParser } from 'fast-xml-parser';
import { compareMavenVersions } from './version-order.ts';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** `yyyyMMddHHmmss` in UTC, Maven's lastUpdated. */
export const lastUpdatedOf = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);

export interface ArtifactMetadata {
  groupId: string;
  artifactId: string;
  versions: string[];
  lastUpdated: string;
}

/** The artifact-level maven-metadata.xml: every version, the latest and the latest release. */
export function artifactMetadataXml(meta: ArtifactMetadata): string {
  const versions = [...new Set(meta.versions)].sort(compareMavenVersions);
  const releases = versions.filter((v) => !v.endsWith('-SNAPSHOT'));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata>',
    `  <groupId>${escapeXml(meta.groupId)}</groupId>`,
    `  <artifactId>${escapeXml(meta.artifactId)}</artifactId>`,
    '  <versioning>',
    ...(versions.length ? [`    <latest>${escapeXml(versions.at(-1)!)}</latest>`] : []),
    ...(releases.length ? [`    <release>${escapeXml(releases.at(-1)!)}</release>`] : []),
    '    <versions>',
    ...versions.map((v) => `      <version>${escapeXml(v)}</version>`),
    '    </versions>',
    `    <lastUpdated>${meta.lastUpdated}</lastUpdated>`,
    '  </versioning>',
    '</metadata>',
    '',
  ];
  return lines.join('\n');
}

export interface SnapshotFile {
  classifier?: string;
  extension: string;
  /** `1.0-20261123.101500-3` */
  value: string;
  updated: string;
}

export interface SnapshotMetadata {
  groupId: string;
  artifactId: string;
  version: string;
  timestamp: string;
  buildNumber: number;
  lastUpdated: string;
  files: SnapshotFile[];
}

/** The version-level maven-metadata.xml of a snapshot: its latest build and that build's files. */
export function snapshotMetadataXml(meta: SnapshotMetadata): string {
  const files = meta.files.flatMap((file) => [
    '      <snapshotVersion>',
    ...(file.classifier ? [`        <classifier>${escapeXml(file.classifier)}</classifier>`] : []),
    `        <extension>${escapeXml(file.extension)}</extension>`,
    `        <value>${escapeXml(file.value)}</value>`,
    `        <updated>${file.updated}</updated>`,
    '      </snapshotVersion>',
  ]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata modelVersion="1.1.0">',
    `  <groupId>${escapeXml(meta.groupId)}</groupId>`,
    `  <artifactId>${escapeXml(meta.artifactId)}</artifactId>`,
    `  <version>${escapeXml(meta.version)}</version>`,
    '  <versioning>',
    '    <snapshot>',
    `      <timestamp>${meta.timestamp}</timestamp>`,
    `      <buildNumber>${meta.buildNumber}</buildNumber>`,
    '    </snapshot>',
    `    <lastUpdated>${meta.lastUpdated}</lastUpdated>`,
    '    <snapshotVersions>',
    ...files,
    '    </snapshotVersions>',
    '  </versioning>',
    '</metadata>',
    '',
  ].join('\n');
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'version' || name === 'snapshotVersion',
});

/** An upstream's artifact-level metadata, as far as a virtual repository merges it. */
export function readArtifactMetadata(xml: string): { versions: string[]; lastUpdated?: string } {
  const doc = parser.parse(xml) as {
    metadata?: { versioning?: { versions?: { version?: string[] }; lastUpdated?: string } };
  };
  const versioning = doc.metadata?.versioning;
  return {
    versions: (versioning?.versions?.version ?? []).map(String),
    lastUpdated: versioning?.lastUpdated ? String(versioning.lastUpdated) : undefined,
  };
}

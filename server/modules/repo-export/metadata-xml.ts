import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Properties } from '../artifacts/properties.ts';

/**
 * Artifactory's repository export keeps each item's metadata beside it, in a
 * `.artifactory-metadata` folder of the item's parent (docs/repository-export.md):
 * `<name>.properties.xml` and `<name>.artifactory-file.xml` for a file, `properties.xml`
 * for the folder itself.
 */
export const METADATA_DIR = '.artifactory-metadata';
export const PROPERTIES_SUFFIX = '.properties.xml';
export const FILE_INFO_SUFFIX = '.artifactory-file.xml';
export const FOLDER_PROPERTIES = 'properties.xml';

/** The checksums an export records for a file, verified again on import. */
export interface RecordedChecksums {
  sha1?: string;
  md5?: string;
  sha256?: string;
}

export interface FileInfo {
  name: string;
  repoKey: string;
  relPath: string;
  size: number;
  mimeType: string | null;
  created: Date;
  createdBy: string;
  modified: Date;
  modifiedBy: string;
  checksums: Required<RecordedChecksums>;
}

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

const element = (name: string, value: string | number) =>
  `<${name}>${escapeXml(String(value))}</${name}>`;

/** `<properties><property><key>k</key><value>v</value></property>…</properties>`, one per value. */
export function propertiesXml(properties: Properties): string {
  const lines = Object.keys(properties)
    .sort()
    .flatMap((key) =>
      properties[key]!.map(
        (value) => `  <property>${element('key', key)}${element('value', value)}</property>`,
      ),
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<properties>\n${lines.join('\n')}\n</properties>\n`;
}

/** The file's record: who made it and when, its size, type and checksums. */
export function fileInfoXml(info: FileInfo): string {
  const checksums = (['sha1', 'md5', 'sha256'] as const)
    .map(
      (type) =>
        `      <checksum>${element('type', type)}${element('original', info.checksums[type])}` +
        `${element('actual', info.checksums[type])}</checksum>`,
    )
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<artifactory-file>',
    `  ${element('name', info.name)}`,
    `  ${element('created', info.created.getTime())}`,
    `  ${element('createdBy', info.createdBy)}`,
    `  ${element('modifiedBy', info.modifiedBy)}`,
    `  ${element('lastModified', info.modified.getTime())}`,
    `  ${element('lastUpdated', info.modified.getTime())}`,
    `  ${element('repoKey', info.repoKey)}`,
    `  ${element('relPath', info.relPath)}`,
    `  ${element('size', info.size)}`,
    ...(info.mimeType ? [`  ${element('mimeType', info.mimeType)}`] : []),
    '  <checksumsInfo>',
    '    <checksums>',
    checksums,
    '    </checksums>',
    '  </checksumsInfo>',
    '</artifactory-file>',
    '',
  ].join('\n');
}

// Every value as text (a version "1.0" stays "1.0"), lists where Artifactory repeats elements.
const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'property' || name === 'checksum',
  processEntities: true,
});

/** Thrown for metadata that is not the XML an export writes; the import names the file. */
export class UnreadableMetadata extends Error {}

function parse(text: string): Record<string, unknown> {
  if (XMLValidator.validate(text) !== true) throw new UnreadableMetadata('not well-formed XML');
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch {
    throw new UnreadableMetadata('not well-formed XML');
  }
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** Reads a `properties.xml`; a value may repeat a key (multi-valued properties). */
export function parsePropertiesXml(xml: string): Properties {
  const root = parse(xml).properties;
  if (root === undefined) throw new UnreadableMetadata('no <properties> element');
  const properties: Properties = {};
  // An empty element parses as text; one with entries as an object.
  const list =
    typeof root === 'object' && root ? ((root as { property?: unknown[] }).property ?? []) : [];
  for (const entry of list) {
    const { key, value } = (entry ?? {}) as { key?: unknown; value?: unknown };
    const name = text(key).trim();
    if (!name) throw new UnreadableMetadata('a property without a key');
    (properties[name] ??= []).push(text(value));
  }
  return properties;
}

/** The checksums an `artifactory-file.xml` records (the server's own, `actual`, first). */
export function parseFileInfoChecksums(xml: string): RecordedChecksums {
  const root = parse(xml)['artifactory-file'] as
    { checksumsInfo?: { checksums?: { checksum?: unknown[] } } } | undefined;
  if (root === undefined || typeof root !== 'object')
    throw new UnreadableMetadata('no <artifactory-file> element');
  const recorded: RecordedChecksums = {};
  for (const entry of root.checksumsInfo?.checksums?.checksum ?? []) {
    const { type, actual, original } = (entry ?? {}) as Record<string, unknown>;
    const kind = text(type).toLowerCase();
    const value = (text(actual) || text(original)).trim().toLowerCase();
    if ((kind === 'sha1' || kind === 'md5' || kind === 'sha256') && value) recorded[kind] = value;
  }
  return recorded;
}

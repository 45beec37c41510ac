import { createHash } from 'node:crypto';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';

/** What a test distribution declares about itself (METADATA / PKG-INFO). */
export interface DistMetadata {
  name: string;
  version: string;
  summary?: string;
  requiresPython?: string;
  requiresDist?: string[];
}

const module = (name: string) => name.toLowerCase().replace(/[-.]+/g, '_');

function metadataText(meta: DistMetadata): string {
  const lines = [
    'Metadata-Version: 2.1',
    `Name: ${meta.name}`,
    `Version: ${meta.version}`,
    `Summary: ${meta.summary ?? `The ${meta.name} test package`}`,
    ...(meta.requiresPython ? [`Requires-Python: ${meta.requiresPython}`] : []),
    ...(meta.requiresDist ?? []).map((d) => `Requires-Dist: ${d}`),
    'Description-Content-Type: text/markdown',
    '',
    `# ${meta.name}`,
    '',
  ];
  return lines.join('\n');
}

const recordHash = (content: Buffer) =>
  `sha256=${createHash('sha256').update(content).digest('base64url')}`;

/** A pure-Python wheel (PEP 427) with one module, as a build backend would write it. */
export async function buildWheel(
  meta: DistMetadata,
): Promise<{ filename: string; content: Buffer }> {
  const base = `${module(meta.name)}-${meta.version}`;
  const distInfo = `${base}.dist-info`;
  const files: [string, Buffer][] = [
    [`${module(meta.name)}/__init__.py`, Buffer.from(`NAME = ${JSON.stringify(meta.name)}\n`)],
    [`${distInfo}/METADATA`, Buffer.from(metadataText(meta))],
    [
      `${distInfo}/WHEEL`,
      Buffer.from(
        'Wheel-Version: 1.0\nGenerator: depot-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
      ),
    ],
  ];
  const record = files.map(([path, content]) => `${path},${recordHash(content)},${content.length}`);
  record.push(`${distInfo}/RECORD,,`);
  files.push([`${distInfo}/RECORD`, Buffer.from(`${record.join('\n')}\n`)]);
  const zip = new yazl.ZipFile();
  for (const [path, content] of files) zip.addBuffer(content, path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return { filename: `${base}-py3-none-any.whl`, content: Buffer.concat(chunks) };
}

/** A source distribution: `{name}-{version}/PKG-INFO` and a module, gzipped tar. */
export async function buildSdist(
  meta: DistMetadata,
): Promise<{ filename: string; content: Buffer }> {
  const base = `${module(meta.name)}-${meta.version}`;
  const pack = tar.pack();
  pack.entry({ name: `${base}/PKG-INFO` }, metadataText(meta));
  pack.entry({ name: `${base}/${module(meta.name)}/__init__.py` }, 'NAME = 1\n');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack.pipe(createGzip())) chunks.push(chunk as Buffer);
  return { filename: `${base}.tar.gz`, content: Buffer.concat(chunks) };
}

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

/**
 * A PEP 517 build backend inside the sdist (`backend-path`), on the standard library alone:
 * it writes the wheel of the sdist's module. pip builds such an sdist with nothing to fetch,
 * which is what a test without the internet needs.
 */
function inTreeBackend(meta: DistMetadata): string {
  const name = module(meta.name);
  return `import base64, hashlib, zipfile

NAME = ${JSON.stringify(name)}
VERSION = ${JSON.stringify(meta.version)}
METADATA = open("PKG-INFO", encoding="utf-8").read()


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist_info = f"{NAME}-{VERSION}.dist-info"
    files = {
        f"{NAME}/__init__.py": open(f"{NAME}/__init__.py", "rb").read(),
        f"{dist_info}/METADATA": METADATA.encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: depot-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\\n".join(record) + "\\n").encode()
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(f"{wheel_directory}/{filename}", "w") as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
    return filename
`;
}

/**
 * A source distribution: `{name}-{version}/PKG-INFO` and a module, gzipped tar. `installable`
 * adds a pyproject.toml and an in-tree build backend, so that pip can build and install it.
 */
export async function buildSdist(
  meta: DistMetadata,
  { installable = false }: { installable?: boolean } = {},
): Promise<{ filename: string; content: Buffer }> {
  const base = `${module(meta.name)}-${meta.version}`;
  const pack = tar.pack();
  pack.entry({ name: `${base}/PKG-INFO` }, metadataText(meta));
  pack.entry({ name: `${base}/${module(meta.name)}/__init__.py` }, 'NAME = 1\n');
  if (installable) {
    pack.entry(
      { name: `${base}/pyproject.toml` },
      '[build-system]\nrequires = []\nbuild-backend = "depot_backend"\nbackend-path = ["."]\n',
    );
    pack.entry({ name: `${base}/depot_backend.py` }, inTreeBackend(meta));
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack.pipe(createGzip())) chunks.push(chunk as Buffer);
  return { filename: `${base}.tar.gz`, content: Buffer.concat(chunks) };
}

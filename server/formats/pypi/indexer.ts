import { sql } from 'kysely';
import type { IndexHook, PrepareIndex, Tx } from '../../modules/artifacts/service.ts';
import { readCoreMetadata } from './core-metadata.ts';
import { normalizeName, parseDistributionName } from './names.ts';

/** Where the simple API finds a file's Requires-Python (its `data-requires-python`). */
export const REQUIRES_PYTHON = 'pypi.requires_python';

/** One version of a project, as the package browser reads it. */
export interface PypiVersion {
  name: string;
  version: string;
  /** The core metadata's fields, keyed as twine's form names them. */
  metadata: Record<string, unknown>;
  summary: string;
  readme?: string;
  readmeType?: string;
  user: string;
}

/**
 * The package index rows of a version. A project's first file of a version (a wheel or the
 * sdist) makes its row; the others of the same version keep it.
 */
export async function indexPypiVersion(
  tx: Tx,
  file: { id: number; repositoryId: number },
  version: PypiVersion,
): Promise<void> {
  const pkg = await tx
    .insertInto('packages')
    .values({
      repository_id: file.repositoryId,
      package_type: 'pypi',
      name: normalizeName(version.name),
    })
    .onConflict((c) =>
      c.columns(['repository_id', 'name']).doUpdateSet({ modified_at: sql`now()` }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('package_versions')
    .values({
      package_id: pkg.id,
      version: version.version,
      node_id: file.id,
      manifest: JSON.stringify(version.metadata),
      description: version.summary,
      readme: version.readme || null,
      readme_filename: version.readmeType || null,
      created_by: version.user,
    })
    .onConflict((c) => c.columns(['package_id', 'version']).doNothing())
    .execute();
}

/** The properties an uploaded distribution carries; a path deploy gets the same. */
export function pypiProperties(
  name: string,
  version: string,
  summary: string,
  requiresPython: string,
): Record<string, string[]> {
  return {
    'pypi.name': [name],
    'pypi.normalized.name': [normalizeName(name)],
    'pypi.version': [version],
    ...(summary ? { 'pypi.summary': [summary] } : {}),
    ...(requiresPython ? { [REQUIRES_PYTHON]: [requiresPython] } : {}),
  };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Indexes a distribution deployed by path (curl, the console's deploy, a copy) into a PyPI
 * repository, as twine's upload would: the project and version from its file name, the
 * rest (summary, Requires-Python, the description) from the core metadata inside it. A file
 * whose name is no distribution's is stored as any file; one whose metadata cannot be read
 * is indexed from its name alone.
 */
export const pypiDeployIndexer: PrepareIndex = async (repo, path, file) => {
  if (repo.package_type !== 'pypi' || path.startsWith('.pypi/')) return undefined;
  const filename = path.slice(path.lastIndexOf('/') + 1);
  const dist = parseDistributionName(filename);
  if (!dist) return undefined;
  const core = await readCoreMetadata(file.diskPath, filename, dist.kind);
  // File names escape the project's name (`my_pkg`); the metadata spells it as published.
  const declared = text(core?.fields.name);
  const name = normalizeName(declared) === normalizeName(dist.name) ? declared : dist.name;
  const metadata = { ...core?.fields, name, version: dist.version };
  const summary = text(core?.fields.summary);
  const properties = pypiProperties(
    name,
    dist.version,
    summary,
    text(core?.fields.requires_python),
  );
  const hook: IndexHook = async (tx, stored) => {
    await tx
      .deleteFrom('node_properties')
      .where('node_id', '=', stored.id)
      .where('key', 'in', Object.keys(properties))
      .execute();
    await tx
      .insertInto('node_properties')
      .values(
        Object.entries(properties).flatMap(([key, values]) =>
          values.map((value) => ({ node_id: stored.id, key, value })),
        ),
      )
      .execute();
    await indexPypiVersion(tx, stored, {
      name,
      version: dist.version,
      metadata,
      summary,
      readme: core?.description,
      readmeType: text(core?.fields.description_content_type),
      user: file.user,
    });
  };
  return hook;
};

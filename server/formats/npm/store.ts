import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../modules/artifacts/service.ts';
import type { StoredPackage, StoredVersion } from './packument.ts';

type Queryable = Database | Tx;

/** A version about to be indexed: its documents as stored (server/formats/npm/packument.ts). */
export interface NewVersion {
  repositoryId: number;
  name: string;
  version: string;
  nodeId: number;
  manifest: string;
  abbreviated: string;
  description: string;
  readme?: { filename: string; text: string };
  user: string;
}

// Rows are read in pages, so a package of thousands of versions never arrives as one
// result the database driver decodes in a single turn of the event loop.
const VERSION_PAGE = 200;
// Names asked in one query: far below PostgreSQL's limit of parameters.
const NAME_BATCH = 1000;

/** The npm rows of the package index: packages, versions and dist-tags. */
export function createNpmStore(db: Database) {
  return {
    /** Names and emails of the users named (a package's maintainers, for `npm owner ls`). */
    people(names: string[]) {
      if (names.length === 0) return Promise.resolve([]);
      return db.selectFrom('users').select(['name', 'email']).where('name', 'in', names).execute();
    },

    /**
     * Which of `names` a local npm repository of this Depot holds: names private to it, kept
     * out of what npm audit asks an upstream (docs/npm.md, "npm audit").
     */
    async heldLocally(names: string[]): Promise<Set<string>> {
      const held = new Set<string>();
      for (let start = 0; start < names.length; start += NAME_BATCH) {
        const rows = await db
          .selectFrom('packages as p')
          .innerJoin('repositories as r', 'r.id', 'p.repository_id')
          .select('p.name')
          .distinct()
          .where('r.rclass', '=', 'local')
          .where('p.package_type', '=', 'npm')
          .where('p.name', 'in', names.slice(start, start + NAME_BATCH))
          .execute();
        for (const row of rows) held.add(row.name);
      }
      return held;
    },

    findPackage(repositoryId: number, name: string, q: Queryable = db) {
      return q
        .selectFrom('packages')
        .select(['id', 'name', 'tags', 'created_at', 'modified_at'])
        .where('repository_id', '=', repositoryId)
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /** The versions whose file is still in the package's repository, oldest first. */
    async versions(packageId: number, repositoryId: number): Promise<StoredVersion[]> {
      const all: StoredVersion[] = [];
      let after = 0;
      for (;;) {
        const page = await db
          .selectFrom('package_versions as v')
          .innerJoin('nodes as n', 'n.id', 'v.node_id')
          .select([
            'v.id',
            'v.version',
            'v.manifest',
            'v.abbreviated',
            'v.created_at',
            'v.readme',
            'v.readme_filename',
            'v.created_by',
          ])
          .where('v.package_id', '=', packageId)
          .where('n.repository_id', '=', repositoryId)
          .where('v.id', '>', after)
          .orderBy('v.id')
          .limit(VERSION_PAGE)
          .execute();
        all.push(...page);
        if (page.length < VERSION_PAGE) return all;
        after = Number(page.at(-1)!.id);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /** The version strings alone, whose file is still in the repository (no documents read). */
    async versionNames(packageId: number, repositoryId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('package_versions as v')
        .innerJoin('nodes as n', 'n.id', 'v.node_id')
        .select('v.version')
        .where('v.package_id', '=', packageId)
        .where('n.repository_id', '=', repositoryId)
        .orderBy('v.id')
        .execute();
      return rows.map((row) => row.version);
    },

    async versionExists(repositoryId: number, name: string, version: string) {
      const row = await db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select('v.id')
        .where('p.repository_id', '=', repositoryId)
        .where('p.name', '=', name)
        .where('v.version', '=', version)
        .executeTakeFirst();
      return Boolean(row);
    },

    /** Indexes a version, replacing an earlier index of the same version; answers its package. */
    async insertVersion(tx: Tx, version: NewVersion) {
      const pkg = await tx
        .insertInto('packages')
        .values({ repository_id: version.repositoryId, package_type: 'npm', name: version.name })
        .onConflict((c) =>
          c.columns(['repository_id', 'name']).doUpdateSet({ modified_at: sql`now()` }),
        )
        .returning(['id', 'tags'])
        .executeTakeFirstOrThrow();
      const row = {
        node_id: version.nodeId,
        manifest: version.manifest,
        abbreviated: version.abbreviated,
        description: version.description,
        readme: version.readme?.text ?? null,
        readme_filename: version.readme?.filename ?? null,
        created_by: version.user,
      };
      await tx
        .insertInto('package_versions')
        .values({ package_id: pkg.id, version: version.version, ...row })
        .onConflict((c) => c.columns(['package_id', 'version']).doUpdateSet(row))
        .execute();
      return pkg;
    },

    setTags(tags: Record<string, string>, packageId: number, q: Queryable = db) {
      return q
        .updateTable('packages')
        .set({ tags: JSON.stringify(tags), modified_at: new Date() })
        .where('id', '=', packageId)
        .execute();
    },

    setManifest(
      packageId: number,
      version: string,
      documents: { manifest: string; abbreviated: string },
      q: Queryable = db,
    ) {
      return q
        .updateTable('package_versions')
        .set(documents)
        .where('package_id', '=', packageId)
        .where('version', '=', version)
        .execute();
    },

    /** Marks the package changed (its revision and `time.modified`). */
    touch(packageId: number, q: Queryable = db) {
      return q
        .updateTable('packages')
        .set({ modified_at: new Date() })
        .where('id', '=', packageId)
        .execute();
    },

    deletePackage(packageId: number, q: Queryable = db) {
      return q.deleteFrom('packages').where('id', '=', packageId).execute();
    },

    /** Packages of some repositories whose name or latest description has the text. */
    search(repositoryIds: number[], text: string, limit: number, offset: number) {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;
      return db
        .selectFrom('packages as p')
        .select(['p.id', 'p.name', 'p.tags', 'p.modified_at', 'p.repository_id'])
        .where('p.repository_id', 'in', repositoryIds.length ? repositoryIds : [-1])
        .where('p.package_type', '=', 'npm')
        .where((eb) =>
          eb.or([
            eb(sql`lower(p.name)`, 'like', pattern),
            eb.exists(
              eb
                .selectFrom('package_versions as v')
                .select('v.id')
                .whereRef('v.package_id', '=', 'p.id')
                .where(sql`lower(v.description)`, 'like', pattern),
            ),
          ]),
        )
        .orderBy('p.name')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** The stored document of one version (search results and single-version answers). */
    /** The version names of many packages at once (a search page), by package id. */
    async versionNamesOf(
      packages: { id: number; repository_id: number }[],
    ): Promise<Map<number, string[]>> {
      const names = new Map<number, string[]>(packages.map((p) => [Number(p.id), []]));
      if (packages.length === 0) return names;
      const rows = await db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .innerJoin('nodes as n', 'n.id', 'v.node_id')
        .select(['v.package_id', 'v.version'])
        .where(
          'v.package_id',
          'in',
          packages.map((p) => p.id),
        )
        .whereRef('n.repository_id', '=', 'p.repository_id')
        .orderBy('v.id')
        .execute();
      for (const row of rows) names.get(Number(row.package_id))?.push(row.version);
      return names;
    },

    /** The stored manifests of chosen versions, keyed `packageId@version`. */
    async manifestsOf(wanted: { packageId: number; version: string }[]) {
      const found = new Map<string, { manifest: string; created_by: string }>();
      if (wanted.length === 0) return found;
      const rows = await db
        .selectFrom('package_versions')
        .select(['package_id', 'version', 'manifest', 'created_by'])
        .where((eb) =>
          eb.or(
            wanted.map((w) =>
              eb.and([eb('package_id', '=', w.packageId), eb('version', '=', w.version)]),
            ),
          ),
        )
        .execute();
      for (const row of rows) found.set(`${row.package_id}@${row.version}`, row);
      return found;
    },

    versionManifest(packageId: number, version: string) {
      return db
        .selectFrom('package_versions')
        .select(['manifest', 'node_id', 'created_by'])
        .where('package_id', '=', packageId)
        .where('version', '=', version)
        .executeTakeFirst();
    },
  };
}

export type NpmStore = ReturnType<typeof createNpmStore>;
export type { StoredPackage };

import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { compareVersions, isPreRelease } from '../../formats/registry.ts';
import { escapeLike } from '../artifacts/paths.ts';

/** Repositories a caller may read: their ids and keys. */
export interface Readable {
  ids: number[];
  keyOf: Map<number, string>;
}

export interface PackageFilter {
  name?: string;
  /** One package by its exact name (`package(id:)`), rather than a search. */
  exactName?: string;
  packageTypes?: string[];
  description?: string;
  /** npm scopes (`@acme` or `acme`): packages named `@acme/...`. */
  scope?: string;
  /** Packages any of whose versions carries one of these tags (npm keywords), any case. */
  tags?: string[];
  /** When the package first appeared, at or after / before these instants. */
  createdAfter?: Date;
  createdBefore?: Date;
  /** Packages with a version like this (`*` and `?` wildcards, any case). */
  version?: string;
  /** Packages with a file of this SHA-256, SHA-1 or MD5. */
  checksum?: string;
}

/** What a page of packages is ordered by (spec 02 §7: `orderBy`, or `sort_by`). */
export type PackageOrderField = 'name' | 'created' | 'modified';
const ORDER_COLUMNS: Record<PackageOrderField, string> = {
  name: 'p.name',
  created: 'min(p.created_at)',
  modified: 'max(p.modified_at)',
};

/** A package across the repositories the caller may read (spec 02 §3, Package). */
export interface PackageSummary {
  id: string;
  name: string;
  packageType: string;
  created: Date;
  modified: Date;
  versionsCount: number;
  latestVersion: string;
  description: string;
  downloads: number;
  /** The latest version's manifest (JSON text): its tags and licenses show in the list. */
  latestManifest: string | null;
}

/** `npm://depot-demo`: a package's id is its type and name, whatever repositories hold it. */
export const packageId = (type: string, name: string) => `${type}://${name}`;

export function parsePackageId(id: string): { type: string; name: string } | undefined {
  const match = /^([a-z0-9]+):\/\/(.+)$/.exec(id);
  return match ? { type: match[1]!, name: match[2]! } : undefined;
}

// Each format's order and pre-releases (server/formats/registry.ts).
export { compareVersions, isPreRelease };

/** The version a package shows as its latest: the highest release, or the highest of all. */
function latestOf(type: string, versions: string[]): string | undefined {
  const releases = versions.filter((v) => !isPreRelease(type, v));
  const pool = releases.length ? releases : versions;
  return [...pool].sort((a, b) => compareVersions(type, b, a))[0];
}

/**
 * Tags are the keywords of a version's document (npm's package.json; every format keeps its
 * document as JSON): the version matches when its keywords hold one of the tags, any case.
 */
function hasAnyTag(tags: string[]) {
  const wanted = tags.map((tag) => tag.toLowerCase());
  return sql<boolean>`exists (
    select 1 from jsonb_array_elements_text(
      case when jsonb_typeof(v.manifest::jsonb -> 'keywords') = 'array'
        then v.manifest::jsonb -> 'keywords' else '[]'::jsonb end
    ) as keyword
    where lower(keyword) in (${sql.join(wanted)})
  )`;
}

/** A name filter as people type it: `*` and `?` are wildcards, otherwise a substring. */
function namePattern(name: string): string {
  const escaped = escapeLike(name.toLowerCase()).replace(/\*/g, '%').replace(/\?/g, '_');
  return /[*?]/.test(name) ? escaped : `%${escaped}%`;
}

/** The package index as the package browser reads it: versions whose file is still there. */
/** A version's file has this checksum, whichever of SHA-256, SHA-1 or MD5 it is. */
function hasChecksum(checksum: string) {
  const value = checksum.trim().toLowerCase();
  return sql<boolean>`n.sha256 in (select b.sha256 from blobs b where b.sha256 = ${value} or b.sha1 = ${value} or b.md5 = ${value})`;
}

export function createPackageQueries(db: Database) {
  function liveVersions(readable: Readable) {
    return db
      .selectFrom('packages as p')
      .innerJoin('package_versions as v', 'v.package_id', 'p.id')
      .innerJoin('nodes as n', (join) =>
        join.onRef('n.id', '=', 'v.node_id').onRef('n.repository_id', '=', 'p.repository_id'),
      )
      .where('p.repository_id', 'in', readable.ids.length ? readable.ids : [-1]);
  }

  /** Every live version of some packages, for their latest version and description. */
  async function versionsOf(readable: Readable, keys: { type: string; name: string }[]) {
    if (keys.length === 0) return [];
    return liveVersions(readable)
      .leftJoin('download_stats as d', 'd.node_id', 'n.id')
      .select([
        'p.package_type',
        'p.name',
        'v.version',
        'v.id as version_id',
        'v.description',
        sql<number>`coalesce(d.download_count, 0)`.as('downloads'),
      ])
      .where((eb) =>
        eb.or(
          keys.map((k) => eb.and([eb('p.package_type', '=', k.type), eb('p.name', '=', k.name)])),
        ),
      )
      .execute();
  }

  /** Manifests by version id, read only for the versions a page shows. */
  async function manifestsOf(versionIds: (string | number)[]) {
    if (versionIds.length === 0) return new Map<string, string>();
    const rows = await db
      .selectFrom('package_versions')
      .select(['id', 'manifest'])
      .where('id', 'in', versionIds.map(Number))
      .execute();
    return new Map(rows.map((row) => [String(row.id), row.manifest]));
  }

  return {
    /** A page of packages by name, and whether more follow. */
    async packages(
      readable: Readable,
      filter: PackageFilter,
      page: { first: number; offset: number; descending: boolean; field?: PackageOrderField },
    ): Promise<{ packages: PackageSummary[]; hasNextPage: boolean }> {
      const direction = page.descending ? sql`desc` : sql`asc`;
      const orderColumn = sql.raw(ORDER_COLUMNS[page.field ?? 'name']);
      const groups = await liveVersions(readable)
        .select([
          'p.package_type',
          'p.name',
          sql<Date>`min(p.created_at)`.as('created'),
          sql<Date>`max(p.modified_at)`.as('modified'),
          sql<number>`count(distinct v.version)`.as('versions_count'),
        ])
        .$if(Boolean(filter.name), (q) =>
          q.where(sql`lower(p.name)`, 'like', namePattern(filter.name!)),
        )
        .$if(filter.exactName !== undefined, (q) => q.where('p.name', '=', filter.exactName!))
        .$if(Boolean(filter.packageTypes?.length), (q) =>
          q.where('p.package_type', 'in', filter.packageTypes!),
        )
        .$if(Boolean(filter.description), (q) =>
          q.where(sql`lower(v.description)`, 'like', namePattern(filter.description!)),
        )
        .$if(Boolean(filter.scope), (q) =>
          q.where('p.name', 'like', `@${escapeLike(filter.scope!.replace(/^@/, ''))}/%`),
        )
        .$if(Boolean(filter.tags?.length), (q) => q.where(hasAnyTag(filter.tags!)))
        .$if(Boolean(filter.version), (q) =>
          q.where(sql`lower(v.version)`, 'like', namePattern(filter.version!)),
        )
        .$if(Boolean(filter.checksum), (q) => q.where(hasChecksum(filter.checksum!)))
        .groupBy(['p.package_type', 'p.name'])
        .$if(filter.createdAfter !== undefined, (q) =>
          q.having(sql`min(p.created_at)`, '>=', filter.createdAfter!),
        )
        .$if(filter.createdBefore !== undefined, (q) =>
          q.having(sql`min(p.created_at)`, '<', filter.createdBefore!),
        )
        .orderBy(sql`${orderColumn} ${direction}`)
        // ties (same dates) in name order, so pages never overlap
        .orderBy('p.name')
        .orderBy('p.package_type')
        .limit(page.first + 1)
        .offset(page.offset)
        .execute();
      const shown = groups.slice(0, page.first);
      const versions = await versionsOf(
        readable,
        shown.map((g) => ({ type: g.package_type, name: g.name })),
      );
      const newestOf = (group: (typeof shown)[number]) => {
        const own = versions.filter(
          (v) => v.package_type === group.package_type && v.name === group.name,
        );
        const latest = latestOf(
          group.package_type,
          own.map((v) => v.version),
        );
        return { own, newest: own.find((v) => v.version === latest) };
      };
      const manifests = await manifestsOf(
        shown.flatMap((group) => newestOf(group).newest?.version_id ?? []),
      );
      const packages = shown.map((group) => {
        const { own, newest } = newestOf(group);
        return {
          id: packageId(group.package_type, group.name),
          name: group.name,
          packageType: group.package_type,
          created: new Date(group.created),
          modified: new Date(group.modified),
          versionsCount: Number(group.versions_count),
          latestVersion: newest?.version ?? '',
          description: newest?.description ?? '',
          downloads: own.reduce((sum, v) => sum + Number(v.downloads), 0),
          latestManifest: newest ? (manifests.get(String(newest.version_id)) ?? null) : null,
        };
      });
      return { packages, hasNextPage: groups.length > page.first };
    },

    /** The versions of one package in the readable repositories, one row per repository. */
    versionRows(readable: Readable, type: string, name: string) {
      return liveVersions(readable)
        .leftJoin('download_stats as d', 'd.node_id', 'n.id')
        .select([
          'v.version',
          'v.description',
          'v.created_at',
          'v.id as version_id',
          'v.manifest',
          'n.id as node_id',
          'n.path',
          'n.modified_at',
          'p.repository_id',
          sql<number>`coalesce(d.download_count, 0)`.as('downloads'),
        ])
        .where('p.package_type', '=', type)
        .where('p.name', '=', name)
        .execute();
    },

    /** The files of a version: the lead file's folder for Maven and PyPI, the tarball for npm. */
    filesBeside(repositoryId: number, folder: string, leadPath: string, wholeFolder: boolean) {
      return db
        .selectFrom('nodes as n')
        .leftJoin('blobs as b', 'b.sha256', 'n.sha256')
        .select([
          'n.id',
          'n.path',
          'n.name',
          'n.size',
          'n.mime_type',
          'n.sha256',
          'b.sha1',
          'b.md5',
        ])
        .where('n.repository_id', '=', repositoryId)
        .where('n.folder', '=', false)
        .$if(wholeFolder, (q) => q.where('n.parent_path', '=', folder))
        .$if(!wholeFolder, (q) => q.where('n.path', '=', leadPath))
        .orderBy('n.name')
        .execute();
    },

    /**
     * A version's readme and what names its format (npm: the file's name; PyPI: the
     * description's content type), read alone: version lists never carry the readmes.
     */
    async readme(versionId: number) {
      const row = await db
        .selectFrom('package_versions')
        .select(['readme', 'readme_filename'])
        .where('id', '=', versionId)
        .executeTakeFirst();
      return { text: row?.readme ?? '', nameOrType: row?.readme_filename ?? null };
    },

    properties(nodeId: number) {
      return db
        .selectFrom('node_properties')
        .select(['key', 'value'])
        .where('node_id', '=', nodeId)
        .orderBy('key')
        .orderBy('value')
        .execute();
    },
  };
}

export type PackageQueries = ReturnType<typeof createPackageQueries>;

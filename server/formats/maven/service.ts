import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { AccessDecider } from '../../modules/access-control/decider.ts';
import type {
  ArtifactsService,
  IndexHook,
  PrepareIndex,
  Tx,
} from '../../modules/artifacts/service.ts';
import type { RemoteService } from '../../modules/remote/service.ts';
import type { RepositoriesService } from '../../modules/repositories/service.ts';
import type { FormatCaller } from '../caller.ts';
import {
  buildLabel,
  MAVEN_TYPES,
  METADATA_FILE,
  isSnapshotVersion,
  metadataFolder,
  parseMavenPath,
  splitChecksumSuffix,
  type MavenFile,
} from './layout.ts';
import {
  artifactMetadataXml,
  lastUpdatedOf,
  readArtifactMetadata,
  snapshotMetadataXml,
  type SnapshotFile,
} from './metadata-xml.ts';
import { assertPolicyAllows, handlesVersion, mavenPolicy, servesByPolicy } from './policy.ts';
import { readPom } from './pom.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;
type Queryable = Database | Tx;

const POM_LIMIT = 4 * 1024 * 1024;

/** What a GET in a Maven repository turns into before the usual download. */
export type MavenAnswer =
  { kind: 'document'; body: string; contentType: string } | { kind: 'path'; path: string };

const digest = (algorithm: string, text: string) =>
  createHash(algorithm).update(text).digest('hex');

/** A generated document, or its `.sha1`/`.md5`/`.sha256`/`.sha512`. */
function documentOrChecksum(xml: string, suffix: string | undefined): MavenAnswer {
  if (!suffix) return { kind: 'document', body: xml, contentType: 'application/xml' };
  return { kind: 'document', body: digest(suffix.slice(1), xml), contentType: 'text/plain' };
}

async function readSmall(diskPath: string, limit: number): Promise<string> {
  const handle = await open(diskPath);
  try {
    const { size } = await handle.stat();
    if (size > limit) throw new BadRequest(`The POM is larger than ${limit / 1024 / 1024} MiB`);
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Maven repositories (docs/maven.md): the Maven 2 layout, POM checks and indexing, release
 * and snapshot handling, unique snapshots with a cap, checksum files, and maven-metadata.xml
 * generated for local repositories and merged for virtual ones.
 */
export function createMavenService(deps: {
  db: Database;
  filestore: Filestore;
  artifacts: () => ArtifactsService;
  remote: () => RemoteService;
}) {
  const { db, filestore } = deps;

  /** The package index rows of a POM: the artifact, and the version it names. */
  function indexPom(pom: ReturnType<typeof readPom>, file: MavenFile, user: string): IndexHook {
    return async (tx, stored) => {
      const pkg = await tx
        .insertInto('packages')
        .values({
          repository_id: stored.repositoryId,
          package_type: 'maven',
          name: `${file.groupId}:${file.artifactId}`,
        })
        .onConflict((c) =>
          c.columns(['repository_id', 'name']).doUpdateSet({ modified_at: sql`now()` }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = {
        node_id: stored.id,
        manifest: JSON.stringify(pom),
        description: pom.description ?? pom.name ?? '',
        created_by: user,
      };
      await tx
        .insertInto('package_versions')
        .values({ package_id: pkg.id, version: file.version, ...row })
        .onConflict((c) => c.columns(['package_id', 'version']).doUpdateSet(row))
        .execute();
    };
  }

  /** Removes a snapshot version's oldest builds beyond the repository's cap. */
  function capSnapshots(folder: string, keep: number): IndexHook {
    return async (tx, stored) => {
      const files = await tx
        .selectFrom('nodes')
        .select(['id', 'path'])
        .where('repository_id', '=', stored.repositoryId)
        .where('parent_path', '=', folder)
        .where('folder', '=', false)
        .execute();
      const builds = new Map<string, number[]>();
      for (const node of files) {
        const build = parseMavenPath(node.path)?.snapshotBuild;
        if (!build) continue;
        const label = buildLabel(build);
        builds.set(label, [...(builds.get(label) ?? []), Number(node.id)]);
      }
      const newestFirst = [...builds.keys()].sort((a, b) =>
        b.localeCompare(a, 'en', { numeric: true }),
      );
      const expired = newestFirst.slice(keep).flatMap((label) => builds.get(label)!);
      if (expired.length > 0) await tx.deleteFrom('nodes').where('id', 'in', expired).execute();
    };
  }

  /**
   * Checks and indexes what is deployed into a Maven repository: the release and snapshot
   * policy for every file; for a POM, well-formed XML whose coordinates match its path
   * (unless the repository suppresses the check), then its index rows; for a unique
   * snapshot build, the cap on builds kept.
   */
  const prepareIndex: PrepareIndex = async (repo, path, file) => {
    if (!MAVEN_TYPES.has(repo.package_type)) return undefined;
    assertPolicyAllows(repo, path);
    const policy = mavenPolicy(repo);
    const parsed = parseMavenPath(path);
    const hooks: IndexHook[] = [];
    if (parsed && parsed.extension === 'pom' && !parsed.classifier) {
      const pom = readPom(await readSmall(file.diskPath, POM_LIMIT));
      const expected = `${pom.groupId.replace(/\./g, '/')}/${pom.artifactId}/${pom.version}`;
      const actual = `${parsed.groupId.replace(/\./g, '/')}/${parsed.artifactId}/${parsed.version}`;
      if (!policy.suppressPomConsistencyChecks && expected !== actual)
        throw new Conflict(
          `The target deployment path '${path}' does not match the POM's expected path prefix '${expected}'. Please verify your POM content for correctness and make sure the source path is a valid Maven repository root path.`,
        );
      hooks.push(indexPom(pom, parsed, file.user));
    }
    if (parsed?.snapshotBuild && policy.maxUniqueSnapshots > 0) {
      const folder = path.slice(0, path.lastIndexOf('/'));
      hooks.push(capSnapshots(folder, policy.maxUniqueSnapshots));
    }
    if (hooks.length === 0) return undefined;
    return async (tx, stored) => {
      for (const hook of hooks) await hook(tx, stored);
    };
  };

  /** Files (not folders) directly in a folder of a repository. */
  function filesIn(repositoryId: number, folder: string, q: Queryable = db) {
    return q
      .selectFrom('nodes')
      .select(['id', 'path', 'name', 'sha256', 'modified_at'])
      .where('repository_id', '=', repositoryId)
      .where('parent_path', '=', folder)
      .where('folder', '=', false)
      .execute();
  }

  /**
   * The artifact-level metadata of a local repository, from the files of its version
   * folders: two indexed queries over the nodes of this artifact alone, so the metadata
   * follows every deploy and delete at once and never scans the repository (docs/maven.md).
   */
  async function localArtifactMetadata(repo: { id: number }, folder: string) {
    const parts = folder.split('/');
    const artifactId = parts.at(-1)!;
    // Two lookups by parent folder (the nodes_children index), whatever the locale.
    const versionFolders = (await deps.artifacts().children(repo.id, folder, 100_000))
      .filter((child) => child.folder)
      .map((child) => `${folder}/${child.name}`);
    if (versionFolders.length === 0) return undefined;
    const inVersionFolders = await db
      .selectFrom('nodes')
      .select(['path', 'parent_path', 'modified_at'])
      .where('repository_id', '=', repo.id)
      .where('parent_path', 'in', versionFolders)
      .where('folder', '=', false)
      .execute();
    const versions = new Set<string>();
    let newest = new Date(0);
    for (const file of inVersionFolders) {
      if (!parseMavenPath(file.path)) continue;
      versions.add(file.parent_path.slice(folder.length + 1));
      if (file.modified_at > newest) newest = file.modified_at;
    }
    if (versions.size === 0) return undefined;
    return {
      groupId: parts.slice(0, -1).join('.'),
      artifactId,
      versions: [...versions],
      lastUpdated: lastUpdatedOf(newest),
    };
  }

  /** The version-level metadata of a snapshot in a local repository, from its builds. */
  async function localSnapshotMetadata(repo: { id: number }, folder: string) {
    const builds = (await filesIn(repo.id, folder))
      .map((f) => ({ file: parseMavenPath(f.path), modified: f.modified_at }))
      .filter((f): f is { file: MavenFile; modified: Date } => Boolean(f.file?.snapshotBuild));
    if (builds.length === 0) return undefined;
    const latest = builds.reduce((a, b) =>
      buildLabel(b.file.snapshotBuild!).localeCompare(buildLabel(a.file.snapshotBuild!), 'en', {
        numeric: true,
      }) > 0
        ? b
        : a,
    );
    // The newest build of each classifier and extension.
    const byKind = new Map<string, SnapshotFile & { label: string }>();
    for (const { file, modified } of builds) {
      const label = buildLabel(file.snapshotBuild!);
      const kind = `${file.classifier ?? ''}:${file.extension}`;
      const known = byKind.get(kind);
      if (known && known.label.localeCompare(label, 'en', { numeric: true }) >= 0) continue;
      byKind.set(kind, {
        label,
        classifier: file.classifier,
        extension: file.extension,
        value: `${file.version.replace(/-SNAPSHOT$/, '')}-${label}`,
        updated: lastUpdatedOf(modified),
      });
    }
    const { file } = latest;
    return {
      groupId: file.groupId,
      artifactId: file.artifactId,
      version: file.version,
      timestamp: file.snapshotBuild!.timestamp,
      buildNumber: file.snapshotBuild!.buildNumber,
      lastUpdated: lastUpdatedOf(latest.modified),
      files: [...byKind.values()].map(({ label: _label, ...rest }) => rest),
    };
  }

  /** A member's artifact-level versions: generated for a local one, the upstream's for a remote. */
  async function memberVersions(
    member: RepositoryRow,
    folder: string,
    path: string,
    caller: FormatCaller,
  ): Promise<{ versions: string[]; lastUpdated?: string } | undefined> {
    if (member.rclass === 'local') return localArtifactMetadata(member, folder);
    if (member.rclass !== 'remote') return undefined;
    const cached = await deps.artifacts().findNode(member.id, path);
    const answer = await deps.remote().resolve(member, path, cached, {
      user: caller.principal.name,
      log: caller.log,
      streaming: false,
    });
    if (answer.kind !== 'cached') return undefined;
    return readArtifactMetadata(await readFile(filestore.pathOf(answer.node.sha256!), 'utf8'));
  }

  /** A virtual repository's metadata: every readable member's versions together. */
  async function mergedArtifactMetadata(
    repo: RepositoryRow,
    folder: string,
    path: string,
    caller: FormatCaller,
    access: AccessDecider,
  ) {
    const versions: string[] = [];
    let lastUpdated = '';
    for (const member of await deps.artifacts().readOrder(repo, path)) {
      if (!access.can('read', member.key, folder, 'folder')) continue;
      try {
        const found = await memberVersions(member, folder, path, caller);
        if (!found) continue;
        // A version its member does not handle cannot be resolved through the virtual.
        versions.push(...found.versions.filter((version) => handlesVersion(member, version)));
        if ((found.lastUpdated ?? '') > lastUpdated) lastUpdated = found.lastUpdated!;
      } catch (error) {
        caller.log.warn(
          { repository: member.key, path, reason: (error as Error).message },
          'maven: a member of a virtual repository failed; merging the others',
        );
      }
    }
    if (versions.length === 0) return undefined;
    const parts = folder.split('/');
    return {
      groupId: parts.slice(0, -1).join('.'),
      artifactId: parts.at(-1)!,
      versions,
      lastUpdated: lastUpdated || lastUpdatedOf(new Date()),
    };
  }

  async function metadataOf(
    repo: RepositoryRow,
    folder: string,
    path: string,
    caller: FormatCaller,
    access: AccessDecider,
  ): Promise<string | undefined> {
    const snapshotFolder = isSnapshotVersion(folder.slice(folder.lastIndexOf('/') + 1));
    if (snapshotFolder) {
      const sources =
        repo.rclass === 'virtual' ? await deps.artifacts().readOrder(repo, path) : [repo];
      for (const source of sources) {
        if (source.rclass !== 'local' || !access.can('read', source.key, folder, 'folder'))
          continue;
        const meta = await localSnapshotMetadata(source, folder);
        if (meta) return snapshotMetadataXml(meta);
      }
      return undefined;
    }
    const meta =
      repo.rclass === 'local'
        ? await localArtifactMetadata(repo, folder)
        : await mergedArtifactMetadata(repo, folder, path, caller, access);
    return meta ? artifactMetadataXml(meta) : undefined;
  }

  /** `a-1.0-SNAPSHOT.jar` asked of a local repository without that file: its newest build. */
  async function latestBuildPath(repo: RepositoryRow, path: string) {
    const parsed = parseMavenPath(path);
    if (!parsed || parsed.snapshotBuild || !isSnapshotVersion(parsed.version)) return undefined;
    const folder = path.slice(0, path.lastIndexOf('/'));
    const matching = (await filesIn(repo.id, folder))
      .map((f) => parseMavenPath(f.path))
      .filter(
        (f): f is MavenFile =>
          Boolean(f?.snapshotBuild) &&
          f!.classifier === parsed.classifier &&
          f!.extension === parsed.extension,
      )
      .sort((a, b) =>
        buildLabel(b.snapshotBuild!).localeCompare(buildLabel(a.snapshotBuild!), 'en', {
          numeric: true,
        }),
      );
    return matching[0] ? `${folder}/${matching[0].filename}` : undefined;
  }

  return {
    prepareIndex,

    /**
     * The maven-metadata.xml a GET of `folder/maven-metadata.xml` answers in a local
     * repository: a snapshot version folder's builds, or an artifact folder's versions.
     * Undefined when the folder is neither (the repository export writes it, with `m2`).
     */
    async localMetadataXml(repositoryId: number, folder: string): Promise<string | undefined> {
      const repo = { id: repositoryId };
      if (isSnapshotVersion(folder.slice(folder.lastIndexOf('/') + 1))) {
        const meta = await localSnapshotMetadata(repo, folder);
        if (meta) return snapshotMetadataXml(meta);
      }
      const meta = await localArtifactMetadata(repo, folder);
      return meta ? artifactMetadataXml(meta) : undefined;
    },

    /**
     * What a GET in a Maven repository is, before the usual download: generated metadata
     * (local and virtual repositories; a remote one proxies its upstream's), or a
     * non-unique snapshot name turned into its newest build (of a local repository, or of
     * a virtual's local members). Undefined: download as asked.
     */
    async answer(
      repo: RepositoryRow,
      path: string,
      caller: FormatCaller,
      access: AccessDecider,
    ): Promise<MavenAnswer | undefined> {
      if (!MAVEN_TYPES.has(repo.package_type) || repo.rclass === 'remote') return undefined;
      const { base, suffix } = splitChecksumSuffix(path) ?? { base: path, suffix: undefined };
      const folder = metadataFolder(base);
      if (folder) {
        // A caller who may not read the folder gets the usual download's refusal.
        if (repo.rclass === 'local' && !access.can('read', repo.key, folder, 'folder'))
          return undefined;
        const xml = await metadataOf(repo, folder, base, caller, access);
        return xml === undefined ? undefined : documentOrChecksum(xml, suffix);
      }
      // Through a virtual: the newest build of the first local member that has builds.
      const locals =
        repo.rclass === 'local'
          ? [repo]
          : (await deps.artifacts().readOrder(repo, path)).filter(
              (member) =>
                member.rclass === 'local' &&
                servesByPolicy(member, path) &&
                access.can('read', member.key, path),
            );
      for (const source of locals) {
        // A member that has the very name (a non-unique deploy) serves it as asked.
        if (await deps.artifacts().findNode(source.id, path)) return undefined;
        const latest = await latestBuildPath(source, path);
        if (latest) return { kind: 'path', path: latest };
      }
      return undefined;
    },

    /**
     * A PUT Maven sends that Depot answers without storing: its own maven-metadata.xml
     * (Depot generates the metadata of local repositories), and checksum files of a stored
     * file, which are checked against the stored checksums. Answers the status to send, or
     * undefined to deploy as usual.
     */
    async interceptDeploy(
      target: RepositoryRow,
      path: string,
      body: () => Promise<string>,
    ): Promise<number | undefined> {
      if (!MAVEN_TYPES.has(target.package_type)) return undefined;
      const split = splitChecksumSuffix(path);
      const base = split?.base ?? path;
      if (base.endsWith(`/${METADATA_FILE}`) || base === METADATA_FILE) {
        assertPolicyAllows(target, path);
        await body();
        return 201;
      }
      if (!split) return undefined;
      const node = await deps.artifacts().findNode(target.id, split.base);
      if (!node?.sha256) return undefined;
      const sent = (await body()).trim().split(/\s+/)[0]!.toLowerCase();
      const stored =
        split.suffix === '.sha1'
          ? node.sha1
          : split.suffix === '.sha256'
            ? node.sha256
            : split.suffix === '.md5'
              ? await deps.artifacts().md5(node.sha256)
              : undefined;
      if (stored && sent !== stored)
        throw new Conflict(
          `Checksum mismatch: the client sent ${split.suffix.slice(1).toUpperCase()} ${sent} for '${split.base}', the stored file has ${stored}`,
        );
      return 201;
    },
  };
}

export type MavenService = ReturnType<typeof createMavenService>;

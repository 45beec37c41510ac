import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { createAccessService } from '../../modules/access-control/service.ts';
import type { AccessDecider } from '../../modules/access-control/decider.ts';
import type { ArtifactsService, IndexHook } from '../../modules/artifacts/service.ts';
import type { RemoteService } from '../../modules/remote/service.ts';
import type { RepositoriesService } from '../../modules/repositories/service.ts';
import type { FormatCaller as Caller } from '../caller.ts';
import { PYPI_MESSAGES as M } from './messages.ts';
import {
  CACHED_ROOT_PATH,
  cachedPagePath,
  distributionPath,
  isPep440Version,
  normalizeName,
  parseDistributionName,
} from './names.ts';
import { indexPypiVersion, pypiProperties, REQUIRES_PYTHON } from './indexer.ts';
import { parseAnchors, type SimpleFile } from './simple-page.ts';
import type { Upload } from './upload.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;
type AccessService = ReturnType<typeof createAccessService>;

interface Reading extends Caller {
  access: AccessDecider;
}

// Spelled as PEP 440 compares them: case and separators do not matter.
const sameVersion = (a: string, b: string) =>
  a.toLowerCase().replace(/[-_]/g, '.') === b.toLowerCase().replace(/[-_]/g, '.');

/**
 * PyPI repositories (docs/pypi.md): twine's upload, the simple API (PEP 503 HTML and PEP
 * 691 JSON) for local, remote and virtual repositories, and the files it links to.
 */
export function createPypiService(deps: {
  db: Database;
  filestore: Filestore;
  artifacts: ArtifactsService;
  remote: RemoteService;
  access: AccessService;
}) {
  const { db, artifacts, remote, access, filestore } = deps;

  async function pypiRepository(key: string): Promise<RepositoryRow> {
    const repo = await artifacts.repository(key);
    if (repo.package_type !== 'pypi') throw new BadRequest(M.notPypi(repo.key));
    return repo;
  }

  const field = (upload: Upload, name: string) => upload.fields.get(name)?.[0]?.trim() ?? '';

  function required(upload: Upload, name: string): string {
    const value = field(upload, name);
    if (!value) throw new BadRequest(M.missingField(name));
    return value;
  }

  /** The distribution an upload carries, checked against its form; where it will be stored. */
  function checkedDistribution(upload: Upload) {
    const action = field(upload, ':action');
    if (action !== 'file_upload') throw new BadRequest(M.unknownAction(action));
    const name = required(upload, 'name');
    const version = required(upload, 'version');
    if (!upload.file) throw new BadRequest(M.missingFile);
    if (!isPep440Version(version)) throw new BadRequest(M.invalidVersion(version));
    const { filename, staged } = upload.file;
    const dist = parseDistributionName(filename);
    if (!dist) throw new BadRequest(M.badFilename(filename));
    if (normalizeName(dist.name) !== normalizeName(name) || !sameVersion(dist.version, version))
      throw new BadRequest(M.filenameMismatch(filename, name, version));
    const sha256 = field(upload, 'sha256_digest').toLowerCase();
    if (sha256 && sha256 !== staged.sha256)
      throw new BadRequest(`The file does not match the sha256_digest the form sent`);
    return { name, version, filename, staged, path: distributionPath(name, version, filename) };
  }

  /** The package index rows of an uploaded version (the package browser reads them). */
  function indexUpload(upload: Upload, name: string, version: string, user: string): IndexHook {
    const metadata = Object.fromEntries(
      [...upload.fields]
        .filter(([key]) => !key.startsWith(':') && key !== 'content' && key !== 'description')
        .map(([key, values]) => [key, values.length > 1 ? values : values[0]]),
    );
    return (tx, file) =>
      indexPypiVersion(tx, file, {
        name,
        version,
        metadata,
        summary: field(upload, 'summary'),
        readme: field(upload, 'description'),
        readmeType: field(upload, 'description_content_type'),
        user,
      });
  }

  async function upload(repoKey: string, form: Upload, caller: Caller) {
    try {
      await pypiRepository(repoKey);
      const target = await artifacts.deployTarget(repoKey);
      if (target.package_type !== 'pypi') throw new BadRequest(M.notPypi(target.key));
      const dist = checkedDistribution(form);
      await access.require(caller.principal, 'deploy', target.key, dist.path);
      if (await artifacts.findNode(target.id, dist.path))
        throw new Conflict(M.exists(dist.filename));
      await artifacts.deploy({
        repoKey: target.key,
        path: dist.path,
        content: Readable.from([]),
        staged: dist.staged,
        expected: {},
        byChecksum: false,
        properties: pypiProperties(
          dist.name,
          dist.version,
          field(form, 'summary'),
          field(form, 'requires_python'),
        ),
        user: caller.principal.name,
        index: indexUpload(form, dist.name, dist.version, caller.principal.name),
      });
      caller.log.info({ repository: target.key, path: dist.path }, 'pypi: uploaded');
    } finally {
      await filestore.discard(form.file?.staged);
    }
  }

  /** Requires-Python of stored files, by node id. */
  async function requiresPythonOf(nodeIds: number[]) {
    if (nodeIds.length === 0) return new Map<number, string>();
    const rows = await db
      .selectFrom('node_properties')
      .select(['node_id', 'value'])
      .where('key', '=', REQUIRES_PYTHON)
      .where('node_id', 'in', nodeIds)
      .execute();
    return new Map(rows.map((row) => [Number(row.node_id), row.value]));
  }

  async function localFiles(repo: RepositoryRow, project: string): Promise<SimpleFile[]> {
    const stored = await artifacts.listBelow(repo.id, project, { deep: true, withFolders: false });
    const requires = await requiresPythonOf(stored.map((node) => Number(node.id)));
    const files: SimpleFile[] = [];
    for (const node of stored) {
      const filename = node.path.slice(node.path.lastIndexOf('/') + 1);
      const dist = parseDistributionName(filename);
      if (!dist || normalizeName(dist.name) !== project) continue;
      files.push({
        filename,
        path: node.path,
        sha256: node.sha256 ?? undefined,
        requiresPython: requires.get(Number(node.id)),
      });
    }
    return files;
  }

  /** A remote's cached copy of an upstream page (fetched or checked again when stale). */
  async function upstreamPage(
    repo: RepositoryRow,
    cachePath: string,
    upstreamPath: string,
    reading: Reading,
  ) {
    const cached = await artifacts.findNode(repo.id, cachePath);
    const answer = await remote.resolve(repo, cachePath, cached, {
      user: reading.principal.name,
      log: reading.log,
      streaming: false,
      upstreamPath,
    });
    if (answer.kind !== 'cached') return undefined;
    return readFile(filestore.pathOf(answer.node.sha256!), 'utf8');
  }

  const upstreamRoot = (repo: RepositoryRow) => {
    const url = String((repo.config as { url?: string }).url ?? '');
    return url.endsWith('/') ? url : `${url}/`;
  };

  async function remoteFiles(repo: RepositoryRow, project: string, reading: Reading) {
    const pagePath = `simple/${project}/`;
    const html = await upstreamPage(repo, cachedPagePath(project), pagePath, reading);
    if (html === undefined) return [];
    const pageUrl = new URL(pagePath, upstreamRoot(repo));
    const files: SimpleFile[] = [];
    for (const link of parseAnchors(html)) {
      const dist = parseDistributionName(link.text);
      if (!dist) continue;
      const url = new URL(link.href, pageUrl);
      const sha256 = /(?:^|&)sha256=([0-9a-f]{64})/i.exec(url.hash.slice(1))?.[1]?.toLowerCase();
      url.hash = '';
      const yanked = link.attributes['data-yanked'];
      files.push({
        filename: link.text,
        path: distributionPath(dist.name, dist.version, link.text),
        sha256,
        requiresPython: link.attributes['data-requires-python'] || undefined,
        upstreamUrl: url.href,
        ...(yanked !== undefined ? { yanked: yanked || true } : {}),
      });
    }
    return files;
  }

  /** A project's files in a repository; a virtual's come from its members, first wins. */
  async function projectFiles(
    repo: RepositoryRow,
    project: string,
    reading: Reading,
  ): Promise<SimpleFile[]> {
    if (repo.rclass === 'local') return localFiles(repo, project);
    if (repo.rclass === 'remote') return remoteFiles(repo, project, reading);
    const byName = new Map<string, SimpleFile>();
    for (const member of await artifacts.readOrder(repo, project)) {
      if (!reading.access.can('read', member.key, project, 'folder')) continue;
      try {
        for (const file of await projectFiles(member, project, reading)) {
          if (!byName.has(file.filename)) byName.set(file.filename, file);
        }
      } catch (error) {
        reading.log.warn(
          { repository: member.key, project, reason: (error as Error).message },
          'pypi: a member of a virtual repository failed; listing the others',
        );
      }
    }
    return [...byName.values()];
  }

  async function reading(caller: Caller, repoKey: string, path: string): Promise<Reading> {
    const decider = await access.require(caller.principal, 'read', repoKey, path, 'folder');
    return { ...caller, access: decider };
  }

  async function projectsOf(repo: RepositoryRow, reading: Reading): Promise<string[]> {
    if (repo.rclass === 'local') {
      const top = await artifacts.children(repo.id, '', 100_000);
      return top
        .filter((node) => node.folder && !node.name.startsWith('.'))
        .map((node) => node.name);
    }
    if (repo.rclass === 'remote') {
      const html = await upstreamPage(repo, CACHED_ROOT_PATH, 'simple/', reading);
      return html === undefined ? [] : parseAnchors(html).map((link) => normalizeName(link.text));
    }
    const names = new Set<string>();
    for (const member of await artifacts.readOrder(repo, '')) {
      if (!reading.access.can('read', member.key, '', 'folder')) continue;
      for (const name of await projectsOf(member, reading)) names.add(name);
    }
    return [...names].sort();
  }

  return {
    upload,

    async projectPage(repoKey: string, project: string, caller: Caller) {
      const repo = await pypiRepository(repoKey);
      const files = await projectFiles(repo, project, await reading(caller, repo.key, project));
      if (files.length === 0) throw new NotFound(M.projectNotFound(project));
      return files;
    },

    async projects(repoKey: string, caller: Caller) {
      const repo = await pypiRepository(repoKey);
      return projectsOf(repo, await reading(caller, repo.key, ''));
    },

    /**
     * The repository (the asked one, or a member of it) that serves a file, after a remote
     * member has fetched it from where its upstream's page links to it.
     */
    async locateFile(repoKey: string, path: string, caller: Caller): Promise<string> {
      const repo = await pypiRepository(repoKey);
      const read = await reading(caller, repo.key, path);
      const project = path.split('/')[0]!;
      for (const member of await artifacts.readOrder(repo, path)) {
        if (!read.access.can('read', member.key, path)) continue;
        if (await artifacts.findNodeForDownload(member.id, path)) return member.key;
        if (member.rclass !== 'remote') continue;
        const linked = (await remoteFiles(member, project, read)).find((f) => f.path === path);
        if (!linked?.upstreamUrl) continue;
        const answer = await remote.resolve(member, path, undefined, {
          user: caller.principal.name,
          log: caller.log,
          streaming: false,
          upstreamPath: linked.upstreamUrl,
        });
        if (answer.kind === 'cached') return member.key;
      }
      throw new NotFound(M.fileNotFound(path));
    },

    pypiRepository,
  };
}

export type PypiService = ReturnType<typeof createPypiService>;

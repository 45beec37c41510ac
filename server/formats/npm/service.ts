import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import semver from 'semver';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { createAccessService } from '../../modules/access-control/service.ts';
import type { ArtifactsService, Tx } from '../../modules/artifacts/service.ts';
import { upstreamUrl, type RemoteService } from '../../modules/remote/service.ts';
import type { RepositoriesService } from '../../modules/repositories/service.ts';
import type { TrashService } from '../../modules/trash/service.ts';
import type { FormatCaller } from '../caller.ts';
import { createNpmDocuments, documentText, type PackageDocument } from './documents.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import {
  assertPublishableName,
  cachedDocumentPath,
  tarballPath,
  tarballPathOf,
  versionOfTarball,
} from './names.ts';
import { liveTags, versionDocuments, type Manifest } from './packument.ts';
import { createNpmStore } from './store.ts';
import {
  auditNames,
  decodeAuditBody,
  encodeAuditBody,
  withoutNames,
  type AuditShape,
} from './audit-body.ts';
import { readPackageTarball } from './tarball.ts';
import {
  assertTarballMatches,
  cleanVersion,
  storedVersion,
  tarballChecksums,
} from './version-document.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;
type AccessService = ReturnType<typeof createAccessService>;

interface Attachment {
  data?: unknown;
  length?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * npm repositories (docs/npm.md): publish, the packument of local, remote and virtual
 * repositories, dist-tags, deprecate and unpublish, search. A version is indexed in the
 * transaction that stores its tarball, so a refused publish leaves neither.
 */
/** Where npm (7 and later) asks for the advisories of the packages a project installs. */
export const ADVISORIES_PATH = '-/npm/v1/security/advisories/bulk';

export function createNpmService(deps: {
  db: Database;
  filestore: Filestore;
  artifacts: ArtifactsService;
  remote: RemoteService;
  trash: TrashService;
  access: AccessService;
  changes?: TableChanges;
}) {
  const { artifacts, access, trash } = deps;
  const store = createNpmStore(deps.db);
  const documents = createNpmDocuments({ ...deps, store });

  async function npmRepository(key: string): Promise<RepositoryRow> {
    const repo = await artifacts.repository(key);
    if (repo.package_type !== 'npm') throw new BadRequest(M.notNpm(repo.key));
    return repo;
  }

  /** Where writes to a repository go: a local one itself, a virtual its deployment target. */
  async function writeTarget(key: string): Promise<RepositoryRow> {
    await npmRepository(key);
    const target = await artifacts.deployTarget(key);
    if (target.package_type !== 'npm') throw new BadRequest(M.notNpm(target.key));
    return target;
  }

  /**
   * A tarball a remote member's upstream keeps somewhere other than the standard
   * `{upstream}/{name}/-/{file}` (another host or path, as the upstream's document links it):
   * fetched into the member's cache from there, so the download that follows finds it. The
   * upstream's credentials go to its own host only (docs/remote-repositories.md).
   */
  async function fetchLinkedTarball(
    repoKey: string,
    name: string,
    file: string,
    caller: FormatCaller,
  ) {
    const repo = await npmRepository(repoKey);
    const path = tarballPathOf(name, file);
    const decider = await access.forPrincipal(caller.principal);
    for (const member of await artifacts.readOrder(repo, path)) {
      if (!decider.can('read', member.key, path)) continue;
      // A member that has it (stored or cached) serves it: nothing to fetch.
      if (await artifacts.findNodeForDownload(member.id, path)) return;
      if (member.rclass !== 'remote' || !decider.can('deploy', member.key, path)) continue;
      const link = await linkedTarball(member, name, file);
      if (!link) continue;
      try {
        const answer = await deps.remote.resolve(member, path, undefined, {
          user: caller.principal.name,
          log: caller.log,
          streaming: false,
          upstreamPath: link,
        });
        if (answer.kind === 'cached') return;
      } catch (error) {
        caller.log.warn(
          { repository: member.key, link, reason: (error as Error).message },
          'npm: the tarball the upstream links to could not be fetched',
        );
      }
    }
  }

  /** Where a remote's cached document links `file`, when that is not the standard place. */
  async function linkedTarball(member: RepositoryRow, name: string, file: string) {
    const cached = await artifacts.findNode(member.id, cachedDocumentPath(name));
    if (!cached?.sha256) return undefined;
    // Scanned, not parsed: a document of many megabytes must not hold the event loop.
    const text = await readFile(deps.filestore.pathOf(cached.sha256), 'utf8');
    const link = [...text.matchAll(/"tarball"\s*:\s*"([^"]*)"/g)]
      .map((match) => JSON.parse(`"${match[1]}"`) as string)
      .find((url) => url.split('/').at(-1) === file);
    if (!link || !/^https?:\/\//.test(link)) return undefined;
    const standard = upstreamUrl((member.config as { url: string }).url, tarballPathOf(name, file));
    const linked = new URL(link);
    const same =
      linked.origin === standard.origin &&
      decodeURIComponent(linked.pathname) === decodeURIComponent(standard.pathname);
    return same ? undefined : link;
  }

  /**
   * npm audit's advisories request, asked of the upstream: a remote repository's own, or a
   * virtual repository's remote members in order, the first that answers. Depot keeps no
   * advisory data; a local repository has nobody to ask (404, and npm says so). Names a local
   * repository of this Depot holds are left out of what goes upstream: they are private, and
   * the upstream has no advisories for them anyway (docs/npm.md, "npm audit").
   */
  async function advisories(
    repoKey: string,
    audit: { path: string; shape: AuditShape; body: Buffer; encoding?: string },
    caller: FormatCaller,
  ) {
    const repo = await npmRepository(repoKey);
    const decider = await access.forPrincipal(caller.principal);
    const remotes = (await artifacts.readOrder(repo, '')).filter(
      (member) => member.rclass === 'remote' && decider.can('read', member.key, '', 'folder'),
    );
    if (remotes.length === 0) throw new NotFound(M.noAdvisories(repo.key));
    const asked = await decodeAuditBody(audit.body, audit.encoding);
    const held = await store.heldLocally(auditNames(asked, audit.shape));
    const post = await encodeAuditBody(withoutNames(asked, audit.shape, held));
    for (const member of remotes) {
      try {
        const answer = await deps.remote.askJson(member, audit.path, post);
        if (answer !== undefined) return answer;
      } catch (error) {
        caller.log.warn(
          { repository: member.key, reason: (error as Error).message },
          'npm: an upstream did not answer the audit',
        );
      }
    }
    throw new NotFound(M.noAdvisories(repo.key));
  }

  /**
   * Which member of a virtual repository, other than its deployment target, serves one of
   * `versions` of a package (`undefined`: none, or `repoKey` is no virtual). Unpublishing such
   * a version through the virtual cannot reach it: the refusal names the member, where a 404
   * would make npm report a success (docs/npm.md, "Unpublish through a virtual repository").
   */
  async function otherMemberServing(
    repoKey: string,
    target: RepositoryRow,
    name: string,
    versions: string[] | 'any',
    caller: FormatCaller,
  ) {
    const repo = await npmRepository(repoKey);
    if (repo.rclass !== 'virtual') return undefined;
    const members = (await artifacts.readOrder(repo, name)).filter((m) => m.id !== target.id);
    for (const member of members) {
      let document: PackageDocument;
      try {
        document = await packument(member.key, name, caller);
      } catch {
        continue; // unreadable, or the package is not there: this member serves nothing of it
      }
      const served = Object.keys(
        (JSON.parse(documentText(document.full)) as Manifest).versions ?? {},
      );
      const version = versions === 'any' ? served[0] : versions.find((v) => served.includes(v));
      if (version !== undefined) return { member, version };
    }
    return undefined;
  }

  async function refuseUnpublishElsewhere(
    repoKey: string,
    target: RepositoryRow,
    name: string,
    versions: string[] | 'any',
    caller: FormatCaller,
  ) {
    const found = await otherMemberServing(repoKey, target, name, versions, caller);
    if (found)
      throw new BadRequest(
        M.unpublishInMember(name, found.version, found.member.key, found.member.rclass),
      );
  }

  async function existingPackage(repo: RepositoryRow, name: string) {
    const pkg = await store.findPackage(repo.id, name);
    if (!pkg) throw new NotFound(M.notFound(name));
    return pkg;
  }

  /** The package's document as the repository serves it; 404 when no member has it. */
  async function packument(repoKey: string, name: string, caller: FormatCaller) {
    const repo = await npmRepository(repoKey);
    const decider = await access.require(caller.principal, 'read', repo.key, name, 'folder');
    const document = await documents.documentOf(repo, name, {
      user: caller.principal.name,
      log: caller.log,
      access: decider,
    });
    if (!document) throw new NotFound(M.notFound(name));
    return document;
  }

  /** The tags to apply with a publish: each must name the new version or a stored one. */
  function publishTags(body: Record<string, unknown>, version: string, stored: string[]) {
    const tags = isObject(body['dist-tags']) ? body['dist-tags'] : { latest: version };
    for (const [tag, value] of Object.entries(tags)) {
      if (typeof value !== 'string' || (value !== version && !stored.includes(value)))
        throw new BadRequest(M.tagUnknownVersion(tag, String(value)));
    }
    return tags as Record<string, string>;
  }

  /** The tarball attachment of a publish, decoded and checked against the document. */
  function attachedTarball(body: Record<string, unknown>, name: string, version: string) {
    const attachments = body._attachments as Record<string, Attachment>;
    const file = Object.keys(attachments).find((key) => key.endsWith('.tgz'));
    const attachment = file ? attachments[file] : undefined;
    if (!attachment || typeof attachment.data !== 'string')
      throw new BadRequest(M.attachmentMissing(`${name}-${version}.tgz`));
    const tarball = Buffer.from(attachment.data, 'base64');
    if (attachment.length !== undefined && Number(attachment.length) !== tarball.length)
      throw new BadRequest(M.lengthMismatch);
    return tarball;
  }

  function assertDistChecksums(manifest: Manifest, computed: ReturnType<typeof tarballChecksums>) {
    const dist = isObject(manifest.dist) ? manifest.dist : {};
    if (typeof dist.shasum === 'string' && dist.shasum.toLowerCase() !== computed.shasum)
      throw new BadRequest(M.checksumMismatch('shasum'));
    const sha512 = typeof dist.integrity === 'string' ? dist.integrity.split(/\s+/) : [];
    const claimed = sha512.filter((sri) => sri.startsWith('sha512-'));
    if (claimed.length > 0 && !claimed.includes(computed.integrity))
      throw new BadRequest(M.checksumMismatch('integrity'));
  }

  async function publish(repoKey: string, name: string, body: unknown, caller: FormatCaller) {
    if (!isObject(body)) throw new BadRequest('The publish document must be a JSON object');
    if (body.name !== name) throw new BadRequest(M.nameMismatch(name, body.name));
    const target = await writeTarget(repoKey);
    const attachments = body._attachments;
    if (!isObject(attachments) || Object.keys(attachments).length === 0)
      return updateDocument(repoKey, target, name, body, caller);
    assertPublishableName(name);
    const versions = isObject(body.versions) ? Object.entries(body.versions) : [];
    if (versions.length !== 1 || !isObject(versions[0]![1])) throw new BadRequest(M.oneVersion);
    const version = cleanVersion(versions[0]![0]);
    const manifest = versions[0]![1] as Manifest;
    if (await store.versionExists(target.id, name, version))
      throw new Forbidden(M.republish(version));
    const tarball = attachedTarball(body, name, version);
    const checksums = tarballChecksums(tarball);
    assertDistChecksums(manifest, checksums);
    const contents = await readPackageTarball(tarball);
    assertTarballMatches(name, version, contents);

    const path = tarballPath(name, version);
    const decider = await access.require(caller.principal, 'deploy', target.key, path);
    if ((await artifacts.findNode(target.id, path)) && !decider.can('delete', target.key, path))
      throw access.denied(caller.principal, 'overwrite', target.key, path);
    const pkg = await store.findPackage(target.id, name);
    const stored = pkg ? await store.versionNames(pkg.id, target.id) : [];
    const tags = publishTags(body, version, stored);
    // The registry, not the client, says who published (npm view shows _npmUser).
    const documents = storedVersion(
      { ...manifest, _npmUser: { name: caller.principal.name } },
      name,
      version,
      checksums,
    );
    await artifacts.deploy({
      repoKey: target.key,
      path,
      content: Readable.from([tarball]),
      expected: { sha1: checksums.shasum },
      byChecksum: false,
      properties: { 'npm.name': [name], 'npm.version': [version] },
      user: caller.principal.name,
      index: async (tx, file) => {
        const row = await store.insertVersion(tx, {
          repositoryId: file.repositoryId,
          name,
          version,
          nodeId: file.id,
          ...documents,
          readme: contents.readme,
          user: caller.principal.name,
        });
        await store.setTags({ ...row.tags, ...tags }, row.id, tx);
      },
    });
    caller.log.info({ repository: target.key, name, version }, 'npm: published');
    return { ok: true, id: name };
  }

  /**
   * A document without attachments: npm's deprecate, and the first step of unpublishing one
   * version. Versions missing from it are unpublished; `deprecated` is taken as sent.
   */
  async function updateDocument(
    repoKey: string,
    target: RepositoryRow,
    name: string,
    body: Record<string, unknown>,
    caller: FormatCaller,
  ) {
    const incoming = isObject(body.versions) ? body.versions : {};
    if (!(await store.findPackage(target.id, name)))
      await refuseUnpublishElsewhere(repoKey, target, name, 'any', caller);
    const pkg = await existingPackage(target, name);
    await access.require(caller.principal, 'deploy', target.key, name, 'folder');
    const stored = await store.versions(pkg.id, target.id);
    if (repoKey !== target.key) {
      // The document came from the virtual's merge: a version it lacks that the target never
      // held was asked to go from another member.
      const merged = await packument(repoKey, name, caller);
      const mergedVersions = Object.keys(
        (JSON.parse(documentText(merged.full)) as Manifest).versions ?? {},
      );
      const elsewhere = mergedVersions.filter(
        (v) => !(v in incoming) && !stored.some((s) => s.version === v),
      );
      if (elsewhere.length > 0)
        await refuseUnpublishElsewhere(repoKey, target, name, elsewhere, caller);
    }
    const removed = stored.filter((v) => !(v.version in incoming));
    // All or nothing: Delete on every tarball to unpublish, checked before the first goes.
    const walker = await access.walker(caller.principal);
    walker.check(removed, {
      named: { repoKey: target.key, path: name, action: 'delete' },
      needs: ({ version }) => [
        { action: 'delete', repoKey: target.key, path: tarballPath(name, version), kind: 'file' },
      ],
    });
    for (const { version } of removed)
      await trash.delete(target.key, tarballPath(name, version), walker);
    const kept = stored.filter((v) => v.version in incoming);
    await deps.db.transaction().execute(async (tx) => {
      for (const version of kept) {
        await applyDeprecation(tx, pkg.id, version, incoming[version.version]);
      }
      const tags = isObject(body['dist-tags']) ? (body['dist-tags'] as Record<string, string>) : {};
      await store.setTags(
        liveTags(
          tags,
          kept.map((v) => v.version),
        ),
        pkg.id,
        tx,
      );
    });
    caller.log.info(
      { repository: target.key, name, unpublished: removed.map((v) => v.version) },
      'npm: document updated',
    );
    return { ok: true, id: name };
  }

  /** Sets or clears a version's `deprecated` message as the document sent it. */
  async function applyDeprecation(
    tx: Tx,
    packageId: number,
    stored: { version: string; manifest: string },
    sent: unknown,
  ) {
    const message = isObject(sent) && typeof sent.deprecated === 'string' ? sent.deprecated : '';
    const manifest = JSON.parse(stored.manifest) as Manifest;
    if ((manifest.deprecated ?? '') === message) return;
    if (message) manifest.deprecated = message;
    else delete manifest.deprecated;
    const { manifest: text, abbreviated } = versionDocuments(manifest);
    await store.setManifest(packageId, stored.version, { manifest: text, abbreviated }, tx);
  }

  async function unpublishPackage(repoKey: string, name: string, caller: FormatCaller) {
    const target = await writeTarget(repoKey);
    if (!(await store.findPackage(target.id, name)))
      await refuseUnpublishElsewhere(repoKey, target, name, 'any', caller);
    const pkg = await existingPackage(target, name);
    await access.require(caller.principal, 'delete', target.key, name, 'folder');
    if (await artifacts.findNode(target.id, name))
      await trash.delete(target.key, name, await access.walker(caller.principal));
    await store.deletePackage(pkg.id);
    caller.log.info({ repository: target.key, name }, 'npm: package unpublished');
    return { ok: true, id: name };
  }

  async function deleteTarball(repoKey: string, name: string, file: string, caller: FormatCaller) {
    const target = await writeTarget(repoKey);
    const path = tarballPathOf(name, file);
    await access.require(caller.principal, 'delete', target.key, path);
    const version = versionOfTarball(name, file);
    if (version !== undefined && !(await artifacts.findNode(target.id, path)))
      await refuseUnpublishElsewhere(repoKey, target, name, [version], caller);
    await trash.delete(target.key, path, await access.walker(caller.principal));
    caller.log.info({ repository: target.key, name, file }, 'npm: tarball deleted');
    return { ok: true, id: name, version: versionOfTarball(name, file) };
  }

  async function distTags(repoKey: string, name: string, caller: FormatCaller) {
    // A local repository's tags are its package row's: no packument is built for them.
    const repo = await npmRepository(repoKey);
    if (repo.rclass === 'local') {
      await access.require(caller.principal, 'read', repo.key, name, 'folder');
      const pkg = await existingPackage(repo, name);
      return liveTags(pkg.tags, await store.versionNames(pkg.id, repo.id));
    }
    const document = await packument(repoKey, name, caller);
    return (JSON.parse(documentText(document.full)) as Manifest)['dist-tags'] as Record<
      string,
      string
    >;
  }

  async function setDistTag(
    repoKey: string,
    name: string,
    tag: string,
    version: unknown,
    caller: FormatCaller,
  ) {
    if (typeof version !== 'string') throw new BadRequest(M.tagNeedsVersion);
    if (semver.validRange(tag)) throw new BadRequest(M.invalidTag(tag));
    const target = await writeTarget(repoKey);
    const pkg = await existingPackage(target, name);
    await access.require(caller.principal, 'deploy', target.key, name, 'folder');
    const versions = await store.versionNames(pkg.id, target.id);
    if (!versions.includes(version)) throw new NotFound(M.tagUnknownVersion(tag, version));
    await store.setTags({ ...liveTags(pkg.tags, versions), [tag]: version }, pkg.id);
    return { ok: true, id: name };
  }

  async function removeDistTag(repoKey: string, name: string, tag: string, caller: FormatCaller) {
    if (tag === 'latest') throw new BadRequest(M.latestStays);
    const target = await writeTarget(repoKey);
    const pkg = await existingPackage(target, name);
    await access.require(caller.principal, 'deploy', target.key, name, 'folder');
    const { [tag]: _removed, ...rest } = pkg.tags;
    await store.setTags(rest, pkg.id);
    return { ok: true, id: name };
  }

  /** npm search: packages whose name or description has the text, in the readable members. */
  async function search(
    repoKey: string,
    text: string,
    page: { size: number; from: number },
    caller: FormatCaller,
  ) {
    const repo = await npmRepository(repoKey);
    const decider = await access.forPrincipal(caller.principal);
    const locals = (await artifacts.readOrder(repo, '')).filter((r) => r.rclass === 'local');
    const keyOf = new Map(locals.map((r) => [r.id, r.key]));
    const rows = (await store.search([...keyOf.keys()], text, page.size, page.from)).filter((row) =>
      decider.can('read', keyOf.get(row.repository_id)!, row.name, 'folder'),
    );
    // Three queries a page, whatever its size: the rows, their versions, the latest manifests.
    const versionsOf = await store.versionNamesOf(rows);
    const latestOf = new Map(
      rows.map((row) => [row.id, liveTags(row.tags, versionsOf.get(Number(row.id)) ?? []).latest]),
    );
    const manifests = await store.manifestsOf(
      rows.flatMap((row) => {
        const version = latestOf.get(row.id);
        return version ? [{ packageId: row.id, version }] : [];
      }),
    );
    const objects = [];
    for (const row of rows) {
      const latest = latestOf.get(row.id);
      if (!latest) continue;
      const stored = manifests.get(`${row.id}@${latest}`);
      const manifest = stored ? (JSON.parse(stored.manifest) as Manifest) : {};
      const publisher = stored?.created_by ?? '';
      objects.push({
        package: {
          name: row.name,
          version: latest,
          description: manifest.description ?? '',
          keywords: manifest.keywords ?? [],
          date: row.modified_at.toISOString(),
          links: {},
          publisher: { username: publisher },
          maintainers: Array.isArray(manifest.maintainers)
            ? manifest.maintainers
            : [{ username: publisher }],
        },
        score: { final: 1, detail: { quality: 1, popularity: 1, maintenance: 1 } },
        searchScore: 1,
      });
    }
    const fromUpstreams = await upstreamSearch(repo, text, page, decider, caller);
    const named = new Set(objects.map((o) => o.package.name));
    for (const found of fromUpstreams) {
      if (objects.length >= page.size) break;
      if (named.has(found.package.name)) continue;
      named.add(found.package.name);
      objects.push(found);
    }
    return { objects, total: objects.length, time: new Date().toUTCString() };
  }

  /**
   * npm search asked of the upstreams of a repository's remote members (a remote repository
   * its own), in read order; results the caller may not read, and upstreams that fail, are
   * left out (docs/npm.md, "Search").
   */
  async function upstreamSearch(
    repo: RepositoryRow,
    text: string,
    page: { size: number; from: number },
    decider: Awaited<ReturnType<AccessService['forPrincipal']>>,
    caller: FormatCaller,
  ) {
    const remotes = (await artifacts.readOrder(repo, '')).filter((r) => r.rclass === 'remote');
    const query = new URLSearchParams({ text, size: String(page.size), from: String(page.from) });
    const found: { package: { name: string } & Record<string, unknown> }[] = [];
    for (const member of remotes) {
      try {
        const answer = (await deps.remote.askJson(member, `-/v1/search?${query}`)) as
          { objects?: unknown } | undefined;
        if (!answer || !Array.isArray(answer.objects)) continue;
        for (const object of answer.objects as { package?: { name?: unknown } }[]) {
          const name = object?.package?.name;
          if (typeof name === 'string' && decider.can('read', member.key, name, 'folder'))
            found.push(object as (typeof found)[number]);
        }
      } catch (error) {
        caller.log.warn(
          { repository: member.key, reason: (error as Error).message },
          'npm: an upstream did not answer the search',
        );
      }
    }
    return found;
  }

  return {
    packument,
    /** A document's bytes as a client gets them (docs/npm.md, "Packuments"). */
    bytesOf: (document: PackageDocument, abbreviated: boolean, base: string) =>
      documents.bytesOf(document, abbreviated, base),
    publish,
    unpublishPackage,
    deleteTarball,
    advisories,
    distTags,
    fetchLinkedTarball,
    setDistTag,
    removeDistTag,
    search,
    npmRepository,
  };
}

export type NpmService = ReturnType<typeof createNpmService>;

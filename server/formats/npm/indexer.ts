import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { BadRequest } from '../../errors.ts';
import type { PrepareIndex } from '../../modules/artifacts/service.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import { tarballPath } from './names.ts';
import type { NpmStore } from './store.ts';
import { readPackageTarball } from './tarball.ts';
import { cleanVersion, storedVersion } from './version-document.ts';

/** dist.integrity of a file on disk, streamed: a tarball is never read whole into memory. */
async function integrityOf(diskPath: string): Promise<string> {
  const hash = createHash('sha512');
  await pipeline(createReadStream(diskPath), hash);
  return `sha512-${hash.digest('base64')}`;
}

/** `name/-/file.tgz` or `@scope/name/-/file.tgz`: where npm tarballs sit in a repository. */
const TARBALL_PATH = /^(@[^/]+\/)?[^/]+\/-\/[^/]+\.tgz$/;

/**
 * Indexes a tarball deployed by path (curl, the console's deploy, a copy script) into an
 * npm repository, as a publish would: its package.json names the version. A tarball that is
 * not a package, or whose package.json names another path, is refused before it is stored.
 */
export function npmDeployIndexer(store: NpmStore): PrepareIndex {
  return async (repo, path, file) => {
    if (repo.package_type !== 'npm' || !TARBALL_PATH.test(path)) return undefined;
    const contents = await readPackageTarball(createReadStream(file.diskPath));
    const name = String(contents.manifest.name);
    const version = cleanVersion(contents.manifest.version);
    if (tarballPath(name, version) !== path)
      throw new BadRequest(M.pathMismatch(path, `${name}@${version}`));
    const checksums = { shasum: file.blob.sha1, integrity: await integrityOf(file.diskPath) };
    const documents = storedVersion(contents.manifest, name, version, checksums);
    return async (tx, stored) => {
      await store.insertVersion(tx, {
        repositoryId: stored.repositoryId,
        name,
        version,
        nodeId: stored.id,
        ...documents,
        readme: contents.readme,
        user: file.user,
      });
    };
  };
}

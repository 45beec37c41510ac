import type { Database } from '../../db/database.ts';
import { parseMavenPath } from '../../formats/maven/layout.ts';
import { compareMavenVersions } from '../../formats/maven/version-order.ts';
import { escapeLike } from '../artifacts/paths.ts';

/** Package types stored in the Maven layout, whose versions the Delete Versions dialog lists. */
export const VERSIONED_PACKAGE_TYPES = new Set(['maven', 'gradle', 'sbt']);

/** One row of the dialog: a version of a group, and in how many artifacts' folders it is. */
export interface VersionEntry {
  groupId: string;
  version: string;
  directoriesCount: number;
}

/** Paths read per query while collecting versions: a large tree is never read at once. */
const PAGE = 5000;

const entryKey = (groupId: string, version: string) => `${groupId}:${version}`;

/**
 * The versions below a folder of a Maven-layout repository, from its artifacts' paths
 * (`group/artifact/version/artifact-version.ext`): each group and version once, with the
 * version folders that hold it (one per artifact of the group). Folders of other shapes
 * are not versions and are left out, and so are files the caller may not read (`readable`),
 * so that no version is known from them alone.
 */
export async function versionFoldersBelow(
  db: Database,
  repositoryId: number,
  path: string,
  readable: (filePath: string) => boolean,
): Promise<Map<string, { entry: VersionEntry; folders: Set<string> }>> {
  const found = new Map<string, { entry: VersionEntry; folders: Set<string> }>();
  for (let after = ''; ;) {
    const page = await db
      .selectFrom('nodes')
      .select('path')
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', false)
      .$if(path !== '', (q) => q.where('path', 'like', `${escapeLike(path)}/%`))
      .where('path', '>', after)
      .orderBy('path')
      .limit(PAGE)
      .execute();
    for (const { path: filePath } of page) {
      if (!readable(filePath)) continue;
      const file = parseMavenPath(filePath);
      if (!file) continue;
      const key = entryKey(file.groupId, file.version);
      const known = found.get(key) ?? {
        entry: { groupId: file.groupId, version: file.version, directoriesCount: 0 },
        folders: new Set<string>(),
      };
      known.folders.add(filePath.slice(0, filePath.lastIndexOf('/')));
      known.entry.directoriesCount = known.folders.size;
      found.set(key, known);
    }
    if (page.length < PAGE) return found;
    after = page.at(-1)!.path;
  }
}

/** The dialog's rows: by group, then newest version first. */
export function versionEntries(found: Awaited<ReturnType<typeof versionFoldersBelow>>) {
  return [...found.values()]
    .map(({ entry }) => entry)
    .sort(
      (a, b) => a.groupId.localeCompare(b.groupId) || compareMavenVersions(b.version, a.version),
    );
}

export { entryKey as versionKey };

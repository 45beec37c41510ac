import type { BuildFile } from './queries.ts';

interface Side {
  files: BuildFile[];
  properties: Record<string, string>;
}

type Entry = {
  name: string;
  type?: string | null;
  sha1?: string | null;
  sha256?: string | null;
  md5?: string | null;
  module: string;
};

/** One category's changes, in Artifactory's diff shape. */
interface Changes<T> {
  new: T[];
  updated: T[];
  unchanged: T[];
  removed: T[];
}

const sameContent = (a: Entry, b: Entry) =>
  (a.sha256 && b.sha256 ? a.sha256 === b.sha256 : true) &&
  (a.sha1 && b.sha1 ? a.sha1 === b.sha1 : true) &&
  (a.md5 && b.md5 ? a.md5 === b.md5 : true);

function compare<T extends { name: string }>(
  current: Map<string, T>,
  previous: Map<string, T>,
  same: (a: T, b: T) => boolean,
): Changes<T> {
  const changes: Changes<T> = { new: [], updated: [], unchanged: [], removed: [] };
  for (const [key, entry] of current) {
    const before = previous.get(key);
    if (!before) changes.new.push(entry);
    else if (same(entry, before)) changes.unchanged.push(entry);
    else changes.updated.push(entry);
  }
  for (const [key, entry] of previous) if (!current.has(key)) changes.removed.push(entry);
  return changes;
}

const entriesOf = (files: BuildFile[], kind: BuildFile['kind']) =>
  new Map(
    files
      .filter((file) => file.kind === kind)
      .map((file) => [
        `${file.module_id}\u0000${file.name}`,
        {
          name: file.name,
          type: file.type,
          sha1: file.sha1,
          sha256: file.sha256,
          md5: file.md5,
          module: file.module_id,
        },
      ]),
  );

/**
 * What changed from `previous` to `current` (GET /api/build/{name}/{number}?diff=): artifacts
 * and dependencies matched by module and name (a dependency's name is its id), changed when
 * their checksums differ; properties by key, changed when their values differ.
 */
export function diffBuilds(current: Side, previous: Side) {
  const properties = (side: Side) =>
    new Map(Object.entries(side.properties).map(([key, value]) => [key, { name: key, value }]));
  return {
    artifacts: compare(
      entriesOf(current.files, 'artifact'),
      entriesOf(previous.files, 'artifact'),
      sameContent,
    ),
    dependencies: compare(
      entriesOf(current.files, 'dependency'),
      entriesOf(previous.files, 'dependency'),
      sameContent,
    ),
    properties: compare(properties(current), properties(previous), (a, b) => a.value === b.value),
  };
}

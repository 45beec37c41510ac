import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antPatternPosix, compileAntPattern } from '../server/modules/artifacts/ant-pattern.ts';

/**
 * The builds list asks the database which builds a caller may read (docs/builds.md, "Scale"),
 * with the permission targets' Ant patterns as PostgreSQL expressions: the database must
 * decide every path as the server's own expressions do.
 */
let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

const PATTERNS = [
  '**',
  'team/**',
  'team/',
  'te?m/*',
  '**/lib/**',
  'a.b/1-*',
  'x{1}(y)+/**',
  'a|b/**',
];
const PATHS = [
  'team/7-1.json',
  'team/app/7-1.json',
  'tesm/7-1.json',
  'other/lib/3-1.json',
  'a.b/1-2.json',
  'aXb/1-2.json',
  'x{1}(y)+/2-1.json',
  'a|b/2-1.json',
  'a/2-1.json',
  'line\nbreak/7-1.json',
  'team\n/7-1.json',
];

describe('Ant patterns in PostgreSQL', () => {
  it('match exactly the paths the server matches', async () => {
    for (const pattern of PATTERNS) {
      const { rows } = await db.query<{ path: string; matches: boolean }>(
        `select path, path ~ $1 as matches from unnest($2::text[]) as path`,
        [antPatternPosix(pattern), PATHS],
      );
      const server = PATHS.map((path) => ({
        path,
        matches: compileAntPattern(pattern).test(path),
      }));
      expect(rows, pattern).toEqual(server);
    }
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSchemaRegistry, SCHEMAS_DIR } from './registry.ts';
import { watchSchemaRegistry, type SchemaWatch } from './watch-registry.ts';

let dir: string | undefined;
let schemaWatch: SchemaWatch | undefined;
afterEach(() => {
  schemaWatch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  schemaWatch = undefined;
});

/** A copy of the shipped schemas, watched, with a logger that keeps what it was told. */
function watchedCopy() {
  dir = mkdtempSync(join(tmpdir(), 'depot-schemas-'));
  cpSync(SCHEMAS_DIR, dir, { recursive: true });
  const registry = loadSchemaRegistry(dir);
  const warnings: string[] = [];
  const logger = { info: () => {}, warn: (_: object, message: string) => warnings.push(message) };
  schemaWatch = watchSchemaRegistry(registry, dir, logger as never);
  return { registry, warnings, watch: schemaWatch, dir };
}

const edit = (file: string, change: (value: Record<string, unknown>) => void) => {
  const value = JSON.parse(readFileSync(file, 'utf8'));
  change(value);
  writeFileSync(file, JSON.stringify(value));
};

describe('reloading schemas in development', () => {
  it('puts an edited descriptor and entity schema into the registry the routes read', async () => {
    const { registry, watch, dir } = watchedCopy();
    edit(join(dir, 'screens', 'groups.screen.json'), (s) => (s.title = 'Teams'));
    edit(join(dir, 'entities', 'group.schema.json'), (s) => (s.title = 'Team'));
    while (registry.entities.get('group')?.title !== 'Team') await watch.nextReload();
    expect(registry.screens.get('groups')?.title).toBe('Teams');
    expect(registry.entities.get('group')?.title).toBe('Team');
  });

  it('keeps the schemas in use while a file does not parse, and says why', async () => {
    const { registry, warnings, watch, dir } = watchedCopy();
    const refused = watch.nextReload();
    writeFileSync(join(dir, 'screens', 'groups.screen.json'), '{ "id": "groups", ');
    await refused;
    expect(registry.screens.get('groups')?.title).toBe('Groups');
    expect(warnings).toEqual(['schemas not reloaded: the previous ones stay in use']);
    writeFileSync(
      join(dir, 'screens', 'groups.screen.json'),
      readFileSync(join(SCHEMAS_DIR, 'screens', 'groups.screen.json')),
    );
    writeFileSync(
      join(dir, 'screens', 'new-thing.screen.json'),
      JSON.stringify({ ...registry.screens.get('groups'), id: 'new-thing', route: '/admin/x' }),
    );
    // The two saves may be read in one reload or two; the last sees both.
    while (!registry.screens.has('new-thing')) await watch.nextReload();
    expect(registry.screens.get('new-thing')?.route).toBe('/admin/x');
    expect(registry.screens.get('groups')?.title).toBe('Groups');
  });
});

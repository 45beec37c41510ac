import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_CELL_NAMES, listCellRegistry } from './listCells';
import { SCREEN_COMPONENT_NAMES, screenRegistry } from './registry';
import { shippedScreens } from './testing';

const SRC = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module a file imports, statically or with import(). */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);

describe('the screen registry', () => {
  it('has the component of every bespoke descriptor and form panel, and no component no descriptor names', () => {
    const named = shippedScreens.flatMap((screen) => [
      ...(screen.component ? [screen.component] : []),
      ...((screen as { form?: { panels?: string[] } }).form?.panels ?? []),
    ]);
    for (const name of named) expect(screenRegistry.has(name), name).toBe(true);
    expect([...new Set(named)].sort()).toEqual(SCREEN_COMPONENT_NAMES);
  });

  it('has the cell of every list column that names one, and no cell no column names', () => {
    const named = shippedScreens.flatMap((screen) =>
      ((screen as { list?: { columns: { cell?: string }[] } }).list?.columns ?? []).flatMap(
        (column) => (column.cell ? [column.cell] : []),
      ),
    );
    for (const name of named) expect(listCellRegistry.has(name), name).toBe(true);
    expect([...new Set(named)].sort()).toEqual(LIST_CELL_NAMES);
  });

  it('is the only way features enter: the shell, the engine and the route entry import none', () => {
    const generic = [
      ...sourceFiles(join(SRC, 'shell')),
      ...sourceFiles(join(SRC, 'engine')),
      join(SRC, 'screens', 'DescriptorScreen.tsx'),
    ];
    const offending = generic.flatMap((file) =>
      importsOf(file)
        .filter(
          (module) => module.includes('/custom/') || /\/screens\/(registry|listCells)/.test(module),
        )
        .map((module) => `${relative(SRC, file)} imports ${module}`),
    );
    expect(offending).toEqual([]);
  });
});

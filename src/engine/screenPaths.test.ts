import { describe, expect, it } from 'vitest';
import type { ScreenSummary } from '../api/descriptor';
import { editPathOf, resolveScreenView } from './screenPaths';

const screen = (extra: Partial<ScreenSummary> = {}): ScreenSummary => ({
  id: 'hooks',
  title: 'Hooks',
  route: '/admin/hooks',
  permission: 'admin',
  store: { kind: 'collection' },
  ...extra,
});

describe('screen paths', () => {
  it('edits an item at route/{key}/edit unless the descriptor names its own edit route', () => {
    const plain = screen();
    expect(editPathOf({ route: plain.route, key: 'key' }, { key: 'a b' })).toBe(
      '/admin/hooks/a%20b/edit',
    );
    expect(resolveScreenView('/admin/hooks/a%20b/edit', [plain])).toMatchObject({
      view: 'edit',
      key: 'a b',
    });

    const spec = screen({ editRoute: '/admin/hooks/edit/{key}' });
    const descriptor = { route: spec.route, key: 'key', editRoute: spec.editRoute };
    expect(editPathOf(descriptor, { key: 'a b' })).toBe('/admin/hooks/edit/a%20b');
    expect(resolveScreenView('/admin/hooks/edit/a%20b', [spec])).toMatchObject({
      view: 'edit',
      key: 'a b',
    });
    expect(resolveScreenView('/admin/hooks/new', [spec])).toMatchObject({ view: 'new' });
    expect(resolveScreenView('/admin/hooks/a/edit', [spec])).toBeUndefined();
  });

  it("opens the new form at a further page the descriptor names (spec's `edit/{id?}`)", () => {
    const spec = screen({
      editRoute: '/admin/hooks/edit/{key}',
      pages: [{ path: '/admin/hooks/edit', view: 'new', title: 'Create New Hook' }],
    });
    expect(resolveScreenView('/admin/hooks/edit', [spec])).toMatchObject({
      view: 'new',
      route: { title: 'Create New Hook' },
    });
    expect(resolveScreenView('/admin/hooks/edit/a', [spec])).toMatchObject({
      view: 'edit',
      key: 'a',
    });
  });
});

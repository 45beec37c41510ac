import type { Catalogue, RepoLayout } from '../../catalogue/catalogue.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { LAYOUT_MESSAGES } from './messages.ts';

/** A layout as the console shows it: built in (read-only) or added by an admin. */
export interface LayoutView extends RepoLayout {
  builtIn: boolean;
}

type LayoutRow = {
  name: string;
  artifact_path_pattern: string;
  distinctive_descriptor_path_pattern: boolean;
  descriptor_path_pattern: string;
  folder_integration_revision_regexp: string;
  file_integration_revision_regexp: string;
};

const fromRow = (row: LayoutRow): LayoutView => ({
  name: row.name,
  artifactPathPattern: row.artifact_path_pattern,
  distinctiveDescriptorPathPattern: row.distinctive_descriptor_path_pattern,
  descriptorPathPattern: row.descriptor_path_pattern,
  folderIntegrationRevisionRegExp: row.folder_integration_revision_regexp,
  fileIntegrationRevisionRegExp: row.file_integration_revision_regexp,
  builtIn: false,
});

const toRow = (layout: RepoLayout) => ({
  name: layout.name,
  artifact_path_pattern: layout.artifactPathPattern,
  distinctive_descriptor_path_pattern: layout.distinctiveDescriptorPathPattern,
  // Without a distinct descriptor there is no descriptor pattern, as in the built-in ones.
  descriptor_path_pattern: layout.distinctiveDescriptorPathPattern
    ? layout.descriptorPathPattern
    : '',
  folder_integration_revision_regexp: layout.folderIntegrationRevisionRegExp,
  file_integration_revision_regexp: layout.fileIntegrationRevisionRegExp,
});

/** What the body schema cannot say: a distinct descriptor needs its pattern; regexps compile. */
function checkLayout(layout: RepoLayout): void {
  if (layout.distinctiveDescriptorPathPattern && !layout.descriptorPathPattern) {
    throw new BadRequest(LAYOUT_MESSAGES.descriptorRequired, 'descriptorPathPattern');
  }
  for (const field of [
    'folderIntegrationRevisionRegExp',
    'fileIntegrationRevisionRegExp',
  ] as const) {
    try {
      new RegExp(layout[field]);
    } catch {
      throw new BadRequest(LAYOUT_MESSAGES.badRegExp, field);
    }
  }
}

/**
 * Repository layouts: the built-in ones from schemas/catalogue (read-only) and the ones
 * admins add, stored in `repo_layouts`. Names are unique across both, whatever their case.
 */
export function createLayoutsService(db: Database, catalogue: Catalogue) {
  const builtIn = (name: string) =>
    catalogue.layouts.find((l) => l.name.toLowerCase() === name.toLowerCase());
  const custom = (name: string) =>
    db.selectFrom('repo_layouts').selectAll().where('name', '=', name).executeTakeFirst();

  /** Refuses a change to a built-in layout, and answers 404 for one that does not exist. */
  async function customOrThrow(name: string) {
    if (catalogue.layout(name)) throw new BadRequest(LAYOUT_MESSAGES.builtIn(name), 'name');
    const row = await custom(name);
    if (!row) throw new NotFound(LAYOUT_MESSAGES.notFound(name));
    return row;
  }

  return {
    async list(): Promise<LayoutView[]> {
      const rows = await db.selectFrom('repo_layouts').selectAll().orderBy('name').execute();
      return [...catalogue.layouts.map((l) => ({ ...l, builtIn: true })), ...rows.map(fromRow)];
    },

    async get(name: string): Promise<LayoutView> {
      const found = catalogue.layout(name);
      if (found) return { ...found, builtIn: true };
      const row = await custom(name);
      if (!row) throw new NotFound(LAYOUT_MESSAGES.notFound(name));
      return fromRow(row);
    },

    async create(layout: RepoLayout): Promise<LayoutView> {
      checkLayout(layout);
      if (builtIn(layout.name)) throw new Conflict(LAYOUT_MESSAGES.exists(layout.name), 'name');
      try {
        await db.insertInto('repo_layouts').values(toRow(layout)).execute();
      } catch (error) {
        throw isUniqueViolation(error)
          ? new Conflict(LAYOUT_MESSAGES.exists(layout.name), 'name')
          : error;
      }
      return this.get(layout.name);
    },

    /** Replaces a custom layout's patterns; its name never changes. */
    async update(name: string, layout: Omit<RepoLayout, 'name'>): Promise<LayoutView> {
      const row = await customOrThrow(name);
      const next = { ...layout, name: row.name };
      checkLayout(next);
      await db
        .updateTable('repo_layouts')
        .set({ ...toRow(next), updated_at: new Date() })
        .where('name', '=', row.name)
        .execute();
      return this.get(row.name);
    },

    /** Deletes custom layouts, all or none: a built-in or used layout stops the lot. */
    async deleteMany(names: string[]): Promise<void> {
      for (const name of names) {
        await customOrThrow(name);
        const users = await db
          .selectFrom('repositories')
          .select('key')
          .where('repo_layout_ref', '=', name)
          .orderBy('key')
          .execute();
        if (users.length > 0) {
          throw new Conflict(
            LAYOUT_MESSAGES.inUse(
              name,
              users.map((u) => u.key),
            ),
          );
        }
      }
      await db.deleteFrom('repo_layouts').where('name', 'in', names).execute();
    },
  };
}

export type LayoutsService = ReturnType<typeof createLayoutsService>;

import type { Services } from '../../services.ts';
import { auditEntry } from '../entities/audit.ts';
import { canonicalJson, type EntityDocument } from '../entities/documents.ts';
import { insertAudit } from '../entities/queries.ts';
import { projectConfigurationSchema } from '../projects/body-schemas.ts';
import { customRolesOf } from '../projects/queries.ts';
import type { ProjectRole } from '../projects/roles.ts';
import { createProjectsService, type Project } from '../projects/service.ts';
import type { ChangeAction } from './entity-writes.ts';
import { pathOf, refusedAt, validateAgainst } from './field-errors.ts';
import { projectRows } from './queries.ts';
import type { ScopedServices, Tx } from './scoped-services.ts';
import type { Db } from './queries.ts';
import { PROJECTS_SECTION } from './sections.ts';

/** A project's custom role as the configuration carries it. */
type RoleEntry = Pick<ProjectRole, 'name' | 'description' | 'environments' | 'actions'>;

/** A project as the configuration document carries it: no key (it is the map's), no null quota. */
export function portableProject(project: Project, roles: ProjectRole[]): EntityDocument {
  const document: EntityDocument = {
    display_name: project.display_name,
    description: project.description,
    admin_privileges: project.admin_privileges,
  };
  if (project.storage_quota_bytes !== null)
    document.storage_quota_bytes = project.storage_quota_bytes;
  if (roles.length > 0)
    document.roles = roles.map(({ name, description, environments, actions }) => ({
      name,
      description,
      environments,
      actions,
    }));
  return document;
}

/** Every project with its custom roles, by key. */
export async function readProjects(db: Db) {
  const projects: Record<string, EntityDocument> = {};
  for (const project of await projectRows(db))
    projects[project.project_key] = portableProject(
      project,
      await customRolesOf(db, project.project_key),
    );
  return projects;
}

/**
 * Writes projects through the projects service (its key, name and role rules) inside the
 * configuration change's transaction: a project before the repositories that name it, and
 * deleted after them (the service refuses to delete a project that still owns one).
 */
export function createProjectWriter(options: {
  tx: Tx;
  services: Services;
  scoped: ScopedServices;
  actor: string;
}) {
  const { tx, services, scoped, actor } = options;
  const projects = createProjectsService({
    db: tx,
    repositories: scoped.repositories,
    limit: services.projects.limit(),
    // Members are not configuration: nothing here adds one.
    userExists: async () => false,
    groupExists: async () => false,
  });
  const audit = (key: string, before?: EntityDocument, after?: EntityDocument) =>
    insertAudit(tx, [auditEntry({ entity: 'project', key, actor }, [], before, after)]);

  async function syncRoles(key: string, wanted: RoleEntry[]) {
    const current = await customRolesOf(tx, key);
    for (const role of wanted) {
      const existing = current.find((candidate) => candidate.name === role.name);
      if (!existing) await projects.createRole(key, { ...role, type: 'CUSTOM' });
      else if (canonicalJson(portableRole(existing)) !== canonicalJson(portableRole(role)))
        await projects.updateRole(key, role.name, { ...role, type: 'CUSTOM' });
    }
    for (const role of current)
      if (!wanted.some((candidate) => candidate.name === role.name))
        await projects.deleteRole(key, role.name);
  }

  return {
    /** Creates or updates the project `key`; undefined when it already reads as `entry`. */
    async upsert(key: string, entry: EntityDocument, current: EntityDocument | undefined) {
      if (current && canonicalJson(entry) === canonicalJson(current)) return undefined;
      return refusedAt(pathOf(PROJECTS_SECTION, key), async (): Promise<ChangeAction> => {
        validateAgainst('project', () => projectConfigurationSchema, entry);
        const { roles = [], ...fields } = entry as EntityDocument & { roles?: RoleEntry[] };
        const project = {
          description: '',
          storage_quota_bytes: null,
          ...fields,
        } as Partial<Project>;
        if (current) await projects.update(key, project);
        else await projects.create({ ...project, project_key: key });
        await refusedAt('roles', () => syncRoles(key, roles));
        await audit(key, current, entry);
        return current ? 'update' : 'create';
      });
    },

    /** Deletes a project; one that still owns a repository is refused. */
    async delete(key: string): Promise<ChangeAction> {
      return refusedAt(pathOf(PROJECTS_SECTION, key), async () => {
        await projects.delete(key);
        await audit(key, {});
        return 'delete' as const;
      });
    },
  };
}

const portableRole = ({ name, description = '', environments = [], actions = [] }: RoleEntry) => ({
  name,
  description,
  environments: [...environments].sort(),
  actions: [...actions].sort(),
});

import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, DepotError, Forbidden, NotFound } from '../../errors.ts';
import { PROJECT_MESSAGES } from '../projects/messages.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { createBodyAjv } from '../../schemas/ajv.ts';
import { createBodySchema, updateBodySchema, type JsonSchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { REPO_MESSAGES, REPO_UI_MESSAGES } from './messages.ts';
import type { RepositoryClass, RepositoryConfig } from './service.ts';
import {
  formFieldOf,
  sectionFields,
  toListItem,
  toRepositoryConfig,
  toRepositoryForm,
  type FormSection,
  type RepositoryForm,
  type ResolvedRepository,
} from './ui-model.ts';

const BASE = '/ui/admin/repositories';
const KINDS: RepositoryClass[] = ['local', 'remote', 'virtual'];
// Admins, and project admins for their project's repositories (checked in each handler).
const manager = { permission: 'user' as const };

const text = (maxLength: number) => ({ type: 'string', maxLength });
const projectKeyQuery = text(32);
const typeKeyParams = {
  type: 'object',
  required: ['type', 'key'],
  properties: { type: text(16), key: { type: 'string', minLength: 1, maxLength: 64 } },
};
type TypeKeyParams = { Params: { type: string; key: string } };

/** The form body's shape only; the values are checked by the repository entity schema. */
function formBodySchema(): JsonSchema {
  const section = (name: FormSection) => ({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(sectionFields(name).map((field) => [field, {}])),
  });
  const sections: FormSection[] = ['general', 'typeSpecific', 'basic', 'remote', 'virtual'];
  return {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'general'],
    properties: {
      type: {},
      ...Object.fromEntries(sections.map((name) => [name, section(name)])),
      advanced: section('advanced'),
    },
  };
}

/** The kind a caller named; anything else is the spec's "Unsupported repo type". */
function kindOf(name: string | undefined, field: string): RepositoryClass | undefined {
  if (name === undefined || name === '') return undefined;
  const kind = KINDS.find((k) => k === name.toLowerCase());
  if (!kind) throw new BadRequest(REPO_MESSAGES.unsupportedType, field);
  return kind;
}

/** A service error, told on the form field it concerns. */
function onFormField(error: unknown): unknown {
  if (!(error instanceof DepotError) || error.field === undefined) return error;
  const field = formFieldOf(error.field);
  return new DepotError(error.statusCode, error.message, field, error.code);
}

/**
 * The console's repository calls (spec 03 §7 Repositories), under /ui/api/v1, for admins and
 * (in their project's context) project admins.
 * They speak the form model (general, typeSpecific, basic, remote, virtual, advanced) and
 * hand the same configuration the REST API uses to the one repositories service, so every
 * rule is the service's and the entity schema's; only the field names are translated.
 */
export async function repositoriesUiRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { repositories, catalogue } = services;
  const entity = services.schemas.entities.get('repository')!;
  // Compiled at the first call that needs them: listing the routes (schemas:check) never does.
  let compiled: Record<'create' | 'update' | 'key', ValidateFunction> | undefined;
  const validators = () => {
    if (compiled) return compiled;
    const ajv = createBodyAjv();
    compiled = {
      create: ajv.compile(createBodySchema(entity)),
      update: ajv.compile(updateBodySchema(entity)),
      key: ajv.compile({
        type: 'object',
        required: ['key'],
        properties: { key: entity.properties!.key },
      }),
    };
    return compiled;
  };

  function checkAgainstEntity(validate: ValidateFunction, config: object) {
    if (validate(config)) return;
    const { message, field } = describeValidation(validate.errors as never);
    throw new BadRequest(message, formFieldOf(field));
  }

  /** A repository the console may see: the trash can is not one it configures. */
  async function visible(key: string, kind?: RepositoryClass): Promise<RepositoryConfig> {
    const config = key.toLowerCase() === TRASH_REPO_KEY ? undefined : await repositories.get(key);
    if (!config || (kind && config.rclass !== kind))
      throw new NotFound(REPO_MESSAGES.notFound(key));
    return config;
  }

  async function describeMembers(keys: string[]): Promise<Map<string, ResolvedRepository>> {
    const members = new Map<string, ResolvedRepository>();
    for (const key of keys) {
      const row = await repositories.findRow(key);
      if (row)
        members.set(key.toLowerCase(), {
          repoKey: row.key,
          type: row.rclass,
          packageType: row.package_type,
        });
    }
    return members;
  }

  const requireManager = (request: FastifyRequest, projectKey: string | undefined) =>
    services.projects.requireRepositoryManager(request.principal, projectKey);
  /**
   * A repository the caller manages. Non-admins are refused alike whether it exists or not,
   * so that the answer tells them nothing about other projects' repositories.
   */
  async function managedRepository(
    request: FastifyRequest,
    key: string,
    kind?: RepositoryClass,
  ): Promise<RepositoryConfig> {
    const config = await visible(key, kind).catch((error: unknown) => {
      if (error instanceof NotFound && !request.principal.admin)
        throw new Forbidden(PROJECT_MESSAGES.notManager);
      throw error;
    });
    await requireManager(request, config.projectKey);
    return config;
  }

  /** In a project's context, its own repositories; otherwise (admins only) all of them. */
  const inProject = (projectKey: string | undefined) => (repo: RepositoryConfig) =>
    !projectKey || repo.projectKey === projectKey;

  app.get<{ Querystring: { type?: string; projectKey?: string } }>(
    BASE,
    {
      config: manager,
      schema: {
        querystring: {
          type: 'object',
          properties: { type: text(32), projectKey: projectKeyQuery },
        },
      },
    },
    async (request) => {
      const { projectKey } = request.query;
      await requireManager(request, projectKey);
      const kind = kindOf(request.query.type, 'type');
      const [list, usage] = await Promise.all([
        repositories.list({ rclass: kind }),
        repositories.usage(),
      ]);
      return list
        .filter((repo) => repo.key !== TRASH_REPO_KEY)
        .filter(inProject(projectKey))
        .map((repo) => toListItem(repo, catalogue, usage.get(repo.key)));
    },
  );

  app.get<{
    Querystring: { repoType?: string; repoKey?: string; packageType?: string; projectKey?: string };
  }>(
    `${BASE}/validatereponame`,
    {
      config: manager,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            repoType: text(32),
            repoKey: text(256),
            packageType: text(32),
            projectKey: projectKeyQuery,
          },
        },
      },
    },
    async (request) => {
      const { repoType, repoKey = '', packageType = '', projectKey } = request.query;
      await requireManager(request, projectKey);
      const kind = kindOf(repoType, 'repoType') ?? 'local';
      const validateKey = validators().key;
      if (!validateKey({ key: repoKey })) {
        return { valid: false, error: describeValidation(validateKey.errors as never).message };
      }
      try {
        await repositories.checkNewKey({ key: repoKey, rclass: kind, packageType, projectKey });
        return { valid: true };
      } catch (error) {
        if (error instanceof DepotError && error.statusCode < 500)
          return { valid: false, error: error.message };
        throw error;
      }
    },
  );

  app.get<{ Querystring: { packageType?: string; repoKey?: string; projectKey?: string } }>(
    `${BASE}/availablerepositories`,
    {
      config: manager,
      schema: {
        querystring: {
          type: 'object',
          properties: { packageType: text(32), repoKey: text(64), projectKey: projectKeyQuery },
        },
      },
    },
    async (request) => {
      const { packageType, repoKey = '', projectKey } = request.query;
      await requireManager(request, projectKey);
      const list = await repositories.list({ packageType: packageType || undefined });
      // A project's virtual aggregates its own repositories and those shared with it.
      const offered = (repo: RepositoryConfig) =>
        inProject(projectKey)(repo) ||
        Boolean(repo.sharedWithProjects?.some((p) => p === projectKey || p === '*'));
      // A virtual aggregates locals and remotes; never itself or the trash can.
      return list
        .filter(offered)
        .filter((repo) => repo.rclass !== 'virtual' && repo.key !== TRASH_REPO_KEY)
        .filter((repo) => repo.key.toLowerCase() !== repoKey.toLowerCase())
        .map((repo) => ({ repoKey: repo.key, type: repo.rclass, packageType: repo.packageType }));
    },
  );

  app.get<TypeKeyParams>(
    `${BASE}/:type/:key`,
    { config: manager, schema: { params: typeKeyParams } },
    async (request) => {
      const kind = kindOf(request.params.type, 'type');
      const config = await managedRepository(request, request.params.key, kind);
      return toRepositoryForm(config, await describeMembers(config.repositories ?? []));
    },
  );

  app.post<{ Body: RepositoryForm }>(
    BASE,
    { config: manager, schema: { body: formBodySchema() } },
    async (request, reply) => {
      const config = toRepositoryConfig(request.body);
      await requireManager(request, config.projectKey);
      checkAgainstEntity(validators().create, config);
      const created = await repositories
        .create(config as RepositoryConfig)
        .catch((error: unknown) => Promise.reject(onFormField(error)));
      request.log.info(
        { repository: created.key, by: request.principal.name },
        'repository created',
      );
      return reply.status(201).send({ info: REPO_UI_MESSAGES.created(created.key) });
    },
  );

  app.put<{ Body: RepositoryForm }>(
    BASE,
    { config: manager, schema: { body: formBodySchema() } },
    async (request) => {
      const config = toRepositoryConfig(request.body);
      checkAgainstEntity(validators().key, config);
      checkAgainstEntity(validators().update, config);
      const key = String(config.key ?? '');
      const current = await managedRepository(request, key);
      // Moving a repository between projects is an admin's call (the projects API).
      if (
        !request.principal.admin &&
        (config.projectKey ?? current.projectKey) !== current.projectKey
      )
        throw new Forbidden(PROJECT_MESSAGES.notManager);
      const updated = await repositories
        .update(key, config)
        .catch((error: unknown) => Promise.reject(onFormField(error)));
      request.log.info(
        { repository: updated.key, by: request.principal.name },
        'repository updated',
      );
      return { info: REPO_UI_MESSAGES.updated(updated.key) };
    },
  );

  app.delete<TypeKeyParams>(
    `${BASE}/:type/:key`,
    { config: manager, schema: { params: typeKeyParams } },
    async (request) => {
      const kind = kindOf(request.params.type, 'type');
      const config = await managedRepository(request, request.params.key, kind);
      await repositories.delete(config.key, request.principal.name);
      request.log.info(
        { repository: config.key, by: request.principal.name },
        'repository deleted',
      );
      return { info: REPO_MESSAGES.removed(config.key) };
    },
  );
}

import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { BadRequest, DepotError, NotFound } from '../../errors.ts';
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
const admin = { permission: 'admin' as const };

const text = (maxLength: number) => ({ type: 'string', maxLength });
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
 * The console's repository calls (spec 03 §7 Repositories), under /ui/api/v1, for admins.
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
  const ajv = createBodyAjv();
  const validateCreate = ajv.compile(createBodySchema(entity));
  const validateUpdate = ajv.compile(updateBodySchema(entity));
  const validateKey = ajv.compile({
    type: 'object',
    required: ['key'],
    properties: { key: entity.properties!.key },
  });

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

  app.get<{ Querystring: { type?: string } }>(
    BASE,
    {
      config: admin,
      schema: { querystring: { type: 'object', properties: { type: text(32) } } },
    },
    async (request) => {
      const kind = kindOf(request.query.type, 'type');
      const [list, usage] = await Promise.all([
        repositories.list({ rclass: kind }),
        repositories.usage(),
      ]);
      return list
        .filter((repo) => repo.key !== TRASH_REPO_KEY)
        .map((repo) => toListItem(repo, catalogue, usage.get(repo.key)));
    },
  );

  app.get<{ Querystring: { repoType?: string; repoKey?: string; packageType?: string } }>(
    `${BASE}/validatereponame`,
    {
      config: admin,
      schema: {
        querystring: {
          type: 'object',
          properties: { repoType: text(32), repoKey: text(256), packageType: text(32) },
        },
      },
    },
    async (request) => {
      const { repoType, repoKey = '', packageType = '' } = request.query;
      const kind = kindOf(repoType, 'repoType') ?? 'local';
      if (!validateKey({ key: repoKey })) {
        return { valid: false, error: describeValidation(validateKey.errors as never).message };
      }
      try {
        await repositories.checkNewKey({ key: repoKey, rclass: kind, packageType });
        return { valid: true };
      } catch (error) {
        if (error instanceof DepotError && error.statusCode < 500)
          return { valid: false, error: error.message };
        throw error;
      }
    },
  );

  app.get<{ Querystring: { packageType?: string; repoKey?: string } }>(
    `${BASE}/availablerepositories`,
    {
      config: admin,
      schema: {
        querystring: {
          type: 'object',
          properties: { packageType: text(32), repoKey: text(64) },
        },
      },
    },
    async (request) => {
      const { packageType, repoKey = '' } = request.query;
      const list = await repositories.list({ packageType: packageType || undefined });
      // A virtual aggregates locals and remotes; never itself or the trash can.
      return list
        .filter((repo) => repo.rclass !== 'virtual' && repo.key !== TRASH_REPO_KEY)
        .filter((repo) => repo.key.toLowerCase() !== repoKey.toLowerCase())
        .map((repo) => ({ repoKey: repo.key, type: repo.rclass, packageType: repo.packageType }));
    },
  );

  app.get<TypeKeyParams>(
    `${BASE}/:type/:key`,
    { config: admin, schema: { params: typeKeyParams } },
    async (request) => {
      const kind = kindOf(request.params.type, 'type');
      const config = await visible(request.params.key, kind);
      return toRepositoryForm(config, await describeMembers(config.repositories ?? []));
    },
  );

  app.post<{ Body: RepositoryForm }>(
    BASE,
    { config: admin, schema: { body: formBodySchema() } },
    async (request, reply) => {
      const config = toRepositoryConfig(request.body);
      checkAgainstEntity(validateCreate, config);
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
    { config: admin, schema: { body: formBodySchema() } },
    async (request) => {
      const config = toRepositoryConfig(request.body);
      checkAgainstEntity(validateKey, config);
      checkAgainstEntity(validateUpdate, config);
      const key = String(config.key ?? '');
      await visible(key);
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
    { config: admin, schema: { params: typeKeyParams } },
    async (request) => {
      const kind = kindOf(request.params.type, 'type');
      const config = await visible(request.params.key, kind);
      await repositories.delete(config.key);
      request.log.info(
        { repository: config.key, by: request.principal.name },
        'repository deleted',
      );
      return { info: REPO_MESSAGES.removed(config.key) };
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { createBodySchema } from '../../schemas/registry.ts';
import type { PromotionRequest } from './promotion.ts';
import type { BuildCoordinates } from './views.ts';
import {
  BUILD_ORDER_FIELDS,
  type BuildOrderField,
  type BuildSearchFilter,
} from './build-search.ts';

const reader = { permission: 'reader' } as const;
const text = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const BUILD = '/ui/builds';
/** Where one build's views live: `/{view}/{name}/{number}/{startTime}`, each part encoded. */
const AT = ':name/:number/:startTime';
const coordinateParams = {
  type: 'object',
  required: ['name', 'number', 'startTime'],
  properties: { name: text, number: text, startTime: { type: 'string', pattern: '^[0-9]{1,15}$' } },
} as const;
const projectQuery = {
  type: 'object',
  properties: { projectKey: { type: 'string', maxLength: 64 } },
} as const;

type AtRequest = FastifyRequest<{
  Params: { name: string; number: string; startTime: string; moduleId?: string };
  Querystring: { projectKey?: string; otherNumber?: string; otherDate?: string };
}>;
const at = (request: AtRequest): BuildCoordinates => ({
  ...request.params,
  projectKey: request.query.projectKey || undefined,
});

const coordinatesBody = (required: string[]) =>
  ({
    type: 'object',
    required: ['buildsCoordinates'],
    additionalProperties: false,
    properties: {
      buildsCoordinates: {
        type: 'array',
        minItems: 1,
        maxItems: 500,
        items: {
          type: 'object',
          additionalProperties: false,
          required,
          properties: {
            buildName: text,
            buildNumber: text,
            buildStarted: { type: 'string', pattern: '^[0-9]{1,15}$' },
            projectKey: { type: 'string', maxLength: 64 },
          },
        },
      },
    },
  }) as const;

interface Coordinate {
  buildName: string;
  buildNumber?: string;
  buildStarted?: string;
  projectKey?: string;
}

/**
 * The console's builds pages (spec 02 §7 "Builds"; docs/builds.md, "Console"): the search
 * that lists builds and their versions, one build's views, delete and promotion. Every call
 * goes through the caller's build permissions: a build they may not read is a 404.
 */
export async function buildPagesRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { builds } = services;
  // The Promote dialog's schema (schemas/entities/build-promotion.schema.json) checks its body.
  const promotionBody = createBodySchema(services.schemas.entities.get('build-promotion')!);
  const { views } = builds;

  const searchBody = {
    type: 'object',
    additionalProperties: true,
    properties: {
      name: { type: 'string', maxLength: 1024 },
      projectKey: { type: 'string', maxLength: 64 },
      num_of_rows: { type: 'integer', minimum: 1, maximum: 1000 },
      offset: { type: 'integer', minimum: 0 },
      buildRepo: { type: 'string', maxLength: 128 },
      before: { type: 'integer', minimum: 0 },
      after: { type: 'integer', minimum: 0 },
      order_by: { type: 'string', enum: BUILD_ORDER_FIELDS },
      direction: { type: 'string', enum: ['asc', 'desc'] },
    },
  } as const;
  type SearchBody = {
    name?: string;
    projectKey?: string;
    num_of_rows?: number;
    offset?: number;
    buildRepo?: string;
    before?: number;
    after?: number;
    order_by?: BuildOrderField;
    direction?: 'asc' | 'desc';
  };
  const filterOf = (body: SearchBody): BuildSearchFilter => ({
    buildRepo: body.buildRepo || undefined,
    before: body.before,
    after: body.after,
    orderBy: body.order_by,
    direction: body.direction,
  });

  app.post<{ Body: SearchBody }>(
    '/global-search/builds',
    { config: reader, schema: { body: searchBody } },
    async (request) =>
      views.search(
        request.principal,
        {
          name: request.body.name,
          projectKey: request.body.projectKey || undefined,
          offset: request.body.offset ?? 0,
          limit: request.body.num_of_rows ?? 100,
        },
        filterOf(request.body),
      ),
  );

  app.post<{ Params: { buildName: string }; Body: SearchBody }>(
    '/global-search/builds/:buildName',
    {
      config: reader,
      schema: { body: searchBody, params: { type: 'object', properties: { buildName: text } } },
    },
    async (request) => ({
      versions: await views.history(
        request.principal,
        request.params.buildName,
        request.body.projectKey || undefined,
        filterOf(request.body),
      ),
    }),
  );

  app.get<{ Params: { name: string }; Querystring: { projectKey?: string } }>(
    `${BUILD}/history/:name`,
    { config: reader, schema: { querystring: projectQuery } },
    async (request) => ({
      history: await views.history(
        request.principal,
        request.params.name,
        request.query.projectKey || undefined,
      ),
    }),
  );

  const view = (path: string, answer: (request: AtRequest) => Promise<unknown>) =>
    app.get(
      `${BUILD}/${path}`,
      { config: reader, schema: { params: coordinateParams, querystring: projectQuery } },
      (request) => answer(request as AtRequest),
    );
  view(`buildInfo/${AT}`, (r) => views.generalInfo(r.principal, at(r)));
  view(`publishedModules/${AT}`, async (r) => ({
    modules: await views.publishedModules(r.principal, at(r)),
  }));
  view(`modulesArtifact/${AT}/:moduleId`, async (r) => ({
    artifacts: await views.moduleArtifacts(r.principal, at(r), r.params.moduleId ?? ''),
  }));
  view(`modulesDependency/${AT}/:moduleId`, async (r) => ({
    dependencies: await views.moduleDependencies(r.principal, at(r), r.params.moduleId ?? ''),
  }));
  view(`buildProps/env/${AT}`, async (r) => ({
    properties: await views.properties(r.principal, at(r), 'env'),
  }));
  view(`buildProps/system/${AT}`, async (r) => ({
    properties: await views.properties(r.principal, at(r), 'system'),
  }));
  view(`buildIssues/${AT}`, (r) => views.issues(r.principal, at(r)));
  view(`releaseHistory/${AT}`, async (r) => ({
    releaseHistory: await views.releaseHistory(r.principal, at(r)),
  }));
  view(`buildJson/${AT}`, async (r) => ({ fileContent: await views.json(r.principal, at(r)) }));
  view(`prevBuild/${AT}`, async (r) => ({ previous: await views.previous(r.principal, at(r)) }));

  // The diff against another build of the name (its number, and its start when given).
  const diffQuery = {
    type: 'object',
    required: ['otherNumber'],
    properties: { ...projectQuery.properties, otherNumber: text, otherDate: text },
  } as const;
  for (const [path, part] of [
    ['buildDiff', undefined],
    ['artifactDiff', 'artifacts'],
    ['dependencyDiff', 'dependencies'],
  ] as const)
    app.get(
      `${BUILD}/${path}/${AT}`,
      { config: reader, schema: { params: coordinateParams, querystring: diffQuery } },
      async (raw) => {
        const request = raw as AtRequest;
        const here = at(request);
        const diff = await builds.diffAt(request.principal, here, {
          number: request.query.otherNumber!,
          startTime: request.query.otherDate,
        });
        return part ? diff[part] : diff;
      },
    );

  app.post<{ Body: { buildsCoordinates: Coordinate[] } }>(
    `${BUILD}/buildsDelete`,
    {
      // Build files only, each judged by the build permissions: no stored artifact goes.
      config: { permission: 'reader' },
      schema: { body: coordinatesBody(['buildName', 'buildNumber', 'buildStarted']) },
    },
    async (request) => deleteBuilds(request.principal, request.body.buildsCoordinates),
  );

  app.post<{ Body: { buildsCoordinates: Coordinate[] } }>(
    `${BUILD}/deleteAllBuilds`,
    {
      // Build files only, each judged by the build permissions: no stored artifact goes.
      config: { permission: 'reader' },
      schema: { body: coordinatesBody(['buildName']) },
    },
    async (request) =>
      deleteBuilds(
        request.principal,
        request.body.buildsCoordinates.map((c) => ({
          buildName: c.buildName,
          projectKey: c.projectKey,
        })),
      ),
  );

  async function deleteBuilds(principal: FastifyRequest['principal'], coordinates: Coordinate[]) {
    const deleted = await builds.deleteExact(
      principal,
      coordinates.map((c) => ({
        name: c.buildName,
        number: c.buildNumber,
        startTime: c.buildStarted,
        projectKey: c.projectKey || undefined,
      })),
    );
    return { info: `${deleted.length} build(s) deleted` };
  }

  app.post<{
    Params: { name: string; number: string };
    Querystring: { projectKey?: string };
    Body: PromotionRequest;
  }>(
    `${BUILD}/promote/:name/:number`,
    { config: { permission: 'reader', reach: 'many' }, schema: { body: promotionBody } },
    async (request) =>
      builds.promote(
        request.principal,
        request.params.name,
        request.params.number,
        request.body,
        request.query.projectKey || undefined,
      ),
  );
}

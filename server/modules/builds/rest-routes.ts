import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { BUILD_MESSAGES as M } from './messages.ts';
import type { PromotionRequest } from './promotion.ts';
import type { BuildRow } from './queries.ts';
import type { PatternRequest } from './pattern-artifacts.ts';

const reader = { permission: 'reader' } as const;
// Uploads (retention), deletes and promotions reach the stored files builds list.
const many = { permission: 'reader', reach: 'many' } as const;
const PREFIX = '/artifactory/api/build';

type Project = { project?: string };
const flag = (value: string | undefined) => value === '1' || value === 'true';
const buildEntry = (row: BuildRow) => ({
  uri: `/${encodeURIComponent(row.number)}`,
  started: row.started,
});

/**
 * The build REST API CI tools call, in Artifactory's shapes (docs/builds.md). Every call is
 * judged by the caller's build permissions inside the service.
 */
export async function buildRestRoutes(
  app: FastifyInstance,
  { services, maxMb }: { services: Services; maxMb: number },
) {
  const { builds } = services;
  const base = (request: FastifyRequest) => `${request.protocol}://${request.host}${PREFIX}`;

  // A document over the limit is the sender's mistake, told plainly; nothing is read or stored.
  const tooLarge = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    return reply.code(400).send({ errors: [{ status: 400, message: M.tooLarge(maxMb) }] });
  };
  app.put<{ Querystring: Project }>(
    PREFIX,
    { config: many, bodyLimit: maxMb * 1024 * 1024, errorHandler: tooLarge },
    async (request, reply) => {
      const info = builds.validate(request.body);
      await builds.upload(request.principal, info, request.query.project);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: Project }>(PREFIX, { config: reader }, async (request) => ({
    uri: base(request),
    builds: (await builds.names(request.principal, request.query.project)).map((row) => ({
      uri: `/${encodeURIComponent(row.name)}`,
      lastStarted: row.started,
    })),
  }));

  app.get<{ Params: { name: string }; Querystring: Project }>(
    `${PREFIX}/:name`,
    { config: reader },
    async (request) => ({
      uri: `${base(request)}/${encodeURIComponent(request.params.name)}`,
      buildsNumbers: (
        await builds.numbers(request.principal, request.params.name, request.query.project)
      ).map(buildEntry),
    }),
  );

  app.get<{
    Params: { name: string; number: string };
    Querystring: Project & { diff?: string; started?: string };
  }>(`${PREFIX}/:name/:number`, { config: reader }, async (request) => {
    const { name, number } = request.params;
    const { project, diff, started } = request.query;
    if (diff) return builds.diff(request.principal, name, number, diff, project);
    const { row } = await builds.find(request.principal, name, number, {
      started,
      projectKey: project,
    });
    return {
      uri: `${base(request)}/${encodeURIComponent(name)}/${encodeURIComponent(number)}`,
      buildInfo: await builds.documentOf(row),
    };
  });

  app.delete<{
    Params: { name: string };
    Querystring: Project & { buildNumbers?: string; artifacts?: string; deleteAll?: string };
  }>(`${PREFIX}/:name`, { config: many }, async (request, reply) => {
    const { name } = request.params;
    const query = request.query;
    const deleted = await builds.delete(request.principal, name, {
      numbers: query.buildNumbers
        ?.split(',')
        .map((n) => n.trim())
        .filter(Boolean),
      all: flag(query.deleteAll),
      artifacts: flag(query.artifacts),
      projectKey: query.project,
    });
    const list = deleted.map((row) => `'${name}#${row.number}'`).join(', ');
    return reply
      .type('text/plain')
      .send(
        flag(query.deleteAll)
          ? `All '${name}' builds were deleted successfully.`
          : `The following builds have been deleted successfully: ${list}.`,
      );
  });

  app.post<{ Params: { name: string }; Querystring: Project & { to?: string } }>(
    `${PREFIX}/rename/:name`,
    // Builds of one name, each judged by the build permissions; no stored artifact is touched.
    { config: reader },
    async (request, reply) => {
      const { name } = request.params;
      const to = request.query.to ?? '';
      await builds.rename(request.principal, name, to, request.query.project);
      return reply
        .type('text/plain')
        .send(`Build renaming of '${name}' to '${to}' was successfully started.`);
    },
  );

  app.post<{
    Params: { name: string; number: string };
    Querystring: Project;
    Body: PromotionRequest;
  }>(
    `${PREFIX}/promote/:name/:number`,
    { config: many, schema: { body: promotionBody } },
    async (request) =>
      builds.promote(
        request.principal,
        request.params.name,
        request.params.number,
        request.body,
        request.query.project,
      ),
  );

  app.post<{ Body: PatternRequest[]; Querystring: Project }>(
    `${PREFIX}/patternArtifacts`,
    // Reads the stored artifacts of builds: each one through the caller's read.
    { config: many, schema: { body: patternBody } },
    async (request) =>
      builds.patternArtifacts(request.principal, request.body, request.query.project),
  );
}

const text = { type: 'string', maxLength: 4096 } as const;
const promotionBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    status: text,
    comment: text,
    ciUser: text,
    timestamp: text,
    dryRun: { type: 'boolean' },
    sourceRepo: text,
    targetRepo: text,
    copy: { type: 'boolean' },
    artifacts: { type: 'boolean' },
    dependencies: { type: 'boolean' },
    failFast: { type: 'boolean' },
    scopes: { type: 'array', items: text },
    properties: { type: 'object', additionalProperties: { type: 'array', items: text } },
  },
};
const patternBody = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    additionalProperties: true,
    required: ['buildName', 'buildNumber'],
    properties: { buildName: text, buildNumber: text, artifactPattern: text, project: text },
  },
};

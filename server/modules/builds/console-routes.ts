import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

const reader = { permission: 'reader' } as const;
const text = { type: 'string', maxLength: 4096 } as const;

/**
 * The console's build calls (spec 02 §7; docs/builds.md): an item's Builds tab, and the
 * build-name lookups the permissions editor uses.
 */
export async function buildConsoleRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { builds } = services;

  app.get<{ Querystring: { repoKey: string; path: string } }>(
    '/ui/artifactbuilds',
    {
      config: reader,
      schema: {
        querystring: {
          type: 'object',
          required: ['repoKey', 'path'],
          properties: { repoKey: text, path: text },
        },
      },
    },
    async (request) =>
      builds.artifactBuilds(request.principal, request.query.repoKey, request.query.path),
  );

  // The build's JSON from an item's Builds tab.
  app.get<{
    Querystring: {
      buildName: string;
      buildNumber: string;
      buildStarted?: string;
      projectKey?: string;
    };
  }>(
    '/ui/artifactbuilds/json',
    {
      config: reader,
      schema: {
        querystring: {
          type: 'object',
          required: ['buildName', 'buildNumber'],
          properties: { buildName: text, buildNumber: text, buildStarted: text, projectKey: text },
        },
      },
    },
    async (request) => {
      const { buildName, buildNumber, buildStarted, projectKey } = request.query;
      // A project's build is in its own repository: the Builds tab's entry names the project.
      const { row } = await builds.find(request.principal, buildName, buildNumber, {
        started: buildStarted,
        projectKey,
      });
      return { fileContent: JSON.stringify(await builds.documentOf(row), null, 2) };
    },
  );

  // The permissions editor's lookups: build names to pick By Name (admins edit targets).
  // Paged when asked (`offset`, `limit`): a large instance has more names than one answer
  // should carry; without them every name, as the editor's first version read it.
  app.get<{ Querystring: { offset?: number; limit?: number; name?: string } }>(
    '/ui/builds/names',
    {
      config: { permission: 'admin' },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            offset: { type: 'integer', minimum: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 1000 },
            name: { type: 'string', maxLength: 1024 },
          },
        },
      },
    },
    async (request) => {
      const { offset = 0, limit, name } = request.query;
      const term = name?.toLowerCase();
      const names = [...new Set((await builds.names(request.principal)).map((row) => row.name))]
        .filter((each) => !term || each.toLowerCase().includes(term))
        .sort((a, b) => a.localeCompare(b));
      const page = limit === undefined ? names.slice(offset) : names.slice(offset, offset + limit);
      return { builds: page, total: names.length, hasMore: offset + page.length < names.length };
    },
  );

  app.post<{ Body: { includePatterns?: string[]; excludePatterns?: string[] } }>(
    '/ui/permissiontargets/buildPatterns',
    {
      config: { permission: 'admin' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            includePatterns: { type: 'array', maxItems: 100, items: text },
            excludePatterns: { type: 'array', maxItems: 100, items: text },
          },
        },
      },
    },
    async (request) =>
      builds.namesMatching(
        request.principal,
        request.body.includePatterns ?? ['**'],
        request.body.excludePatterns ?? [],
      ),
  );
}

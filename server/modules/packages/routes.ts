import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Principal } from '../../http/permissions.ts';
import { readmeFormat } from './dependencies.ts';
import {
  isPackageSearchBody,
  type PackageSearchBody,
  PACKAGES_QUERY,
  packageSearchVariables,
} from './search-request.ts';

interface GraphQlBody {
  /** The query, as text or with its variables (spec 02 §7: "wrapped in the field graphQL"). */
  graphQL?: string | { query?: unknown; variables?: unknown };
}

function requestOf(body: GraphQlBody | undefined) {
  const wrapped = body?.graphQL;
  const query = typeof wrapped === 'string' ? wrapped : wrapped?.query;
  if (typeof query !== 'string' || !query.trim())
    throw new BadRequest('The request body needs graphQL: a GraphQL query');
  const variables = typeof wrapped === 'object' ? wrapped.variables : undefined;
  if (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables)))
    throw new BadRequest('graphQL.variables must be an object');
  return { query, variables: variables as Record<string, unknown> | undefined };
}

const DOCUMENTS = new Set(['readme', 'dependencies', 'props']);

/**
 * The package browser's calls (docs/package-browser.md): `/mds/packages`, `/mds/package` and
 * `/mds/versions` run a GraphQL query as the caller; `/ui/v1/native/versions/{type}/{doc}`
 * answers a version's readme, dependencies or properties.
 */
/**
 * The version a document is asked of: spec 02 §7's `path` query (`{repoKey}/{lead file}`, as
 * a version's repos list it), or the package's `name` and `version`.
 */
async function versionAsked(
  services: Services,
  principal: Principal,
  type: string,
  query: { path?: string; name?: string; version?: string },
): Promise<{ name: string; version: string }> {
  if (query.path) {
    const found = await services.packages.versionAt(principal, type, query.path);
    if (!found) throw new NotFound(`No ${type} version has its file at '${query.path}'`);
    return found;
  }
  if (!query.name || !query.version)
    throw new BadRequest('path, or name and version, are required');
  return { name: query.name, version: query.version };
}

export async function packagesRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const reader = { config: { permission: 'reader' as const } };
  for (const call of ['packages', 'package', 'versions']) {
    app.post(
      `/mds/${call}`,
      reader,
      async (request: FastifyRequest<{ Body: GraphQlBody | PackageSearchBody }>, reply) => {
        // /mds/packages also takes the search shape (limit, sort_by, sort_type, query).
        const asked =
          call === 'packages' && isPackageSearchBody(request.body)
            ? { query: PACKAGES_QUERY, variables: packageSearchVariables(request.body) }
            : requestOf(request.body as GraphQlBody);
        const result = await services.packages.execute(request.principal, asked);
        if (result.errors?.length && !result.data) {
          // A malformed query or a refused argument: the caller's mistake, said plainly.
          return reply.status(400).send({
            errors: result.errors.map((error) => ({ status: 400, message: error.message })),
          });
        }
        return result;
      },
    );
  }

  app.get(
    '/ui/v1/native/versions/:type/:document',
    reader,
    async (
      request: FastifyRequest<{
        Params: { type: string; document: string };
        Querystring: { path?: string; name?: string; version?: string };
      }>,
    ) => {
      const { type, document } = request.params;
      if (!DOCUMENTS.has(document)) throw new NotFound(`Unknown version document '${document}'`);
      const { name, version } = await versionAsked(
        services,
        request.principal,
        type,
        request.query,
      );
      const details = await services.packages.versionDetails(
        request.principal,
        type,
        name,
        version,
      );
      if (!details) throw new NotFound(`Version '${version}' of '${name}' could not be found`);
      if (document === 'readme')
        return {
          readme: details.readme.text,
          format: readmeFormat(type, details.readme.nameOrType),
        };
      if (document === 'dependencies')
        return {
          // npm's own two maps (spec 02 §7), and every format's list for the Dependencies tab.
          dependencies: details.dependencies,
          devDependencies: details.devDependencies,
          list: details.dependencyList,
        };
      const values = new Map<string, string[]>();
      for (const { key, value } of details.properties)
        values.set(key, [...(values.get(key) ?? []), value]);
      return { properties: [...values].map(([key, list]) => ({ key, values: list })) };
    },
  );
}

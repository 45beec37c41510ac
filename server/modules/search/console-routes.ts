import type { FastifyInstance } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import {
  checksumQuery,
  gavcQuery,
  nameTerm,
  propertyQuery,
  quickQuery,
  trashQuery,
  type PropertyKeyValues,
} from './builders.ts';
import type { ItemQuery } from './criteria.ts';
import type { Page } from './engine.ts';
import { SEARCH_MESSAGES as M } from './messages.ts';
import {
  isMavenLike,
  PACKAGE_SEARCH_FIELDS,
  packageTypeOf,
  searchFieldIds,
} from './package-fields.ts';
import type { ItemRow } from './queries.ts';
import { likePattern, withTrailingWildcard } from './wildcards.ts';

/** Rows per page of the console's results; "load more" asks for the next page, to the end. */
const SEARCH_PAGE_SIZE = 500;
const READER = { permission: 'reader' as const };

interface Paging {
  selectedRepositories?: string[];
  projectKey?: string;
  continueState?: string;
  limit?: number;
}

const paging = {
  selectedRepositories: { type: 'array', items: { type: 'string' } },
  projectKey: { type: 'string', maxLength: 32 },
  continueState: { type: 'string', pattern: '^[0-9]{1,15}$' },
  limit: { type: 'integer', minimum: 1, maximum: 1000 },
  search: { type: 'string' },
};
const body = (properties: Record<string, object>, required: string[] = []) => ({
  body: { type: 'object', required, properties: { ...paging, ...properties } },
});
const text = { type: 'string', maxLength: 1024 };
const PACKAGE_FIELD_LIST = {
  type: 'array',
  maxItems: 20,
  items: {
    type: 'object',
    required: ['id'],
    properties: { id: text, values: { type: 'array', maxItems: 50, items: text } },
  },
};
const flag = { type: 'boolean' };

const options = (request: Paging) => ({
  repos: request.selectedRepositories,
  projectKey: request.projectKey,
  resumeAt: request.continueState === undefined ? undefined : Number(request.continueState),
  limit: request.limit ?? SEARCH_PAGE_SIZE,
});

/** A page as the console reads it: `continueState` when more exist (never a silent cap). */
function answer<Row>(page: Page<Row>, render: (row: Row) => object) {
  return {
    results: page.items.map(render),
    hasMore: page.resumeAt !== undefined,
    ...(page.resumeAt !== undefined ? { continueState: String(page.resumeAt) } : {}),
  };
}

const item = (row: ItemRow) => ({
  repoKey: row.repo,
  path: row.path,
  folderPath: row.parent_path,
  name: row.name,
  type: row.folder ? 'folder' : 'file',
  size: row.size,
  mimeType: row.mime_type,
  createdDate: new Date(row.created_at).getTime(),
  modifiedDate: new Date(row.modified_at).getTime(),
});

/**
 * The console's search calls (spec 02 §7 Artifact search), each a page of what the caller
 * may read, and `deleteArtifact` for the results' bulk delete (docs/search.md).
 */
export async function searchConsoleRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { search } = services;
  const items = async (request: { body: Paging; principal: Principal }, query: ItemQuery) =>
    answer(await search.page(request.principal, query, options(request.body)), item);

  app.post<{ Body: Paging & { query?: string } }>(
    '/ui/artifactsearch/quick',
    { config: READER, schema: body({ query: text }) },
    (request) => items(request, quickQuery(request.body.query)),
  );

  app.post<{ Body: Paging & { checksum?: string } }>(
    '/ui/artifactsearch/checksum',
    { config: READER, schema: body({ checksum: text }) },
    (request) => items(request, checksumQuery(request.body.checksum)),
  );

  app.post<{ Body: Paging & { query?: string; isChecksum?: boolean } }>(
    '/ui/artifactsearch/trash',
    { config: READER, schema: body({ query: text, isChecksum: flag }) },
    (request) => items(request, trashQuery(request.body.query, request.body.isChecksum ?? false)),
  );

  app.post<{ Body: Paging & { propertyKeyValues?: PropertyKeyValues[] } }>(
    '/ui/artifactsearch/property',
    {
      config: READER,
      schema: body({
        propertyKeyValues: {
          type: 'array',
          items: {
            type: 'object',
            required: ['key'],
            properties: { key: text, values: { type: 'array', items: text } },
          },
        },
      }),
    },
    (request) => items(request, propertyQuery(request.body.propertyKeyValues ?? [])),
  );

  app.post<{ Body: Paging & Record<'groupID' | 'artifactID' | 'version' | 'classifier', string> }>(
    '/ui/artifactsearch/gavc',
    {
      config: READER,
      schema: body({ groupID: text, artifactID: text, version: text, classifier: text }),
    },
    (request) => items(request, gavcQuery(request.body)),
  );

  app.post<{
    Body: Paging & {
      name?: string;
      path?: string;
      excludeInnerClasses?: boolean;
      searchClassOnly?: boolean;
    };
  }>(
    '/ui/artifactsearch/class',
    {
      config: READER,
      schema: body({ name: text, path: text, excludeInnerClasses: flag, searchClassOnly: flag }),
    },
    async (request) => {
      const { name, path, excludeInnerClasses, searchClassOnly } = request.body;
      const term = nameTerm(name, false);
      const folder = path
        ?.trim()
        .replace(/^\/+|\/+$/g, '')
        .replaceAll('.', '/');
      const page = await search.archiveEntryPage(
        request.principal,
        {
          namePattern: likePattern(term.toLowerCase()),
          pathPattern: folder ? likePattern(folder) : undefined,
          classesOnly: searchClassOnly ?? false,
          excludeInnerClasses: excludeInnerClasses ?? false,
        },
        options(request.body),
      );
      return answer(page, (row) => ({
        repoKey: row.repo,
        path: row.path,
        name: row.entry_name,
        entryPath: row.entry_path ? `${row.entry_path}/${row.entry_name}` : row.entry_name,
        archiveName: row.archive_name,
        archivePath: row.path,
        modifiedDate: new Date(row.modified_at).getTime(),
      }));
    },
  );

  app.post<{ Body: { searchKey?: string } }>(
    '/ui/artifactsearch/remote',
    { config: READER, schema: body({ searchKey: text }) },
    async (request) => {
      const found = await search.remote(request.principal, nameTerm(request.body.searchKey, false));
      // Upstreams answer what they answer: no continue state, and the ones that failed named.
      return { results: found.results, hasMore: false, unavailable: found.unavailable };
    },
  );

  app.get('/ui/artifactsearch/pkg/availablePackages', { config: READER }, async () =>
    Object.entries(PACKAGE_SEARCH_FIELDS).map(([id, fields]) => ({ id, fields })),
  );

  app.get<{ Params: { packageType: string } }>(
    '/ui/artifactsearch/pkg/fields/:packageType',
    { config: READER },
    async (request) => {
      const fields = PACKAGE_SEARCH_FIELDS[packageTypeOf(request.params.packageType)];
      if (!fields) throw new NotFound(M.unknownPackageType(request.params.packageType));
      return fields;
    },
  );

  app.post<{
    Body:
      | { id: string; values?: string[] }[]
      | ({ query: { id: string; values?: string[] }[] } & Paging);
  }>(
    '/ui/artifactsearch/pkg',
    {
      config: READER,
      // Spec 02 §7: a list of {id, values}; `{query: [...], continueState}` pages it.
      schema: {
        body: {
          anyOf: [
            PACKAGE_FIELD_LIST,
            {
              type: 'object',
              required: ['query'],
              properties: { ...paging, query: PACKAGE_FIELD_LIST },
            },
          ],
        },
      },
    },
    async (request) => {
      const raw = request.body;
      const list = Array.isArray(raw) ? raw : (raw?.query ?? []);
      const paged = Array.isArray(raw) ? {} : raw;
      const valuesOf = (id: string) =>
        (list.find((entry) => entry?.id === id)?.values ?? [])
          .map((value) => String(value).trim())
          .filter(Boolean);
      const type = packageTypeOf(valuesOf('pkgType')[0] ?? '');
      if (!PACKAGE_SEARCH_FIELDS[type]) throw new BadRequest(M.unknownPackageType(type), 'pkgType');
      const repos = valuesOf('repo');
      const pageOptions = { ...options(paged as Paging), repos: repos.length ? repos : undefined };
      if (isMavenLike(type)) {
        const [groupID, artifactID, version, classifier] = [
          'groupID',
          'artifactID',
          'version',
          'classifier',
        ].map((id) => valuesOf(id)[0]);
        const page = await search.page(
          request.principal,
          gavcQuery({ groupID, artifactID, version, classifier }),
          pageOptions,
        );
        return answer(page, item);
      }
      const ids = searchFieldIds(type);
      const name = valuesOf(ids.name)[0];
      const version = valuesOf(ids.version)[0];
      const scope = ids.scope ? valuesOf(ids.scope)[0] : undefined;
      const term = [name, version, scope].find(Boolean) ?? '';
      if (term.replace(/[*?]/g, '').length < 3)
        throw new BadRequest(M.packageTermTooShort, 'query');
      const fullName = scope ? `@${scope.replace(/^@/, '')}/${name ?? '*'}` : name;
      const page = await search.packagePage(
        request.principal,
        {
          packageType: type,
          namePattern: fullName
            ? likePattern(withTrailingWildcard(fullName).toLowerCase())
            : undefined,
          versionPattern: version ? likePattern(withTrailingWildcard(version)) : undefined,
        },
        pageOptions,
      );
      return answer(page, (row) => ({
        repoKey: row.repo,
        path: row.path,
        name: row.path.slice(row.path.lastIndexOf('/') + 1),
        packageName: row.package_name,
        version: row.version,
        packageType: row.package_type,
        size: row.size,
        modifiedDate: new Date(row.modified_at).getTime(),
      }));
    },
  );

  app.post<{ Body: { artifacts: { repoKey: string; path: string }[] } }>(
    '/ui/artifactsearch/deleteArtifact',
    {
      // A list of items, each with what is below it: every one is walked before any goes.
      config: { ...READER, reach: 'many' },
      schema: {
        body: {
          type: 'object',
          required: ['artifacts'],
          properties: {
            artifacts: {
              type: 'array',
              minItems: 1,
              maxItems: 10_000,
              items: {
                type: 'object',
                required: ['repoKey', 'path'],
                properties: { repoKey: text, path: text },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const targets = request.body.artifacts.map(({ repoKey, path }) => ({
        repoKey,
        path: path.replace(/^\/+/, ''),
      }));
      // Every item, and everything below a folder, is checked before any is deleted: a
      // refusal deletes nothing.
      const walker = await services.access.walker(request.principal);
      for (const { repoKey, path } of targets) {
        await services.access.require(request.principal, 'delete', repoKey, path);
        await walker.requireSubtree('delete', await services.artifacts.repository(repoKey), path);
      }
      for (const { repoKey, path } of targets) await services.trash.delete(repoKey, path, walker);
      return { info: M.deleted(targets.length) };
    },
  );
}

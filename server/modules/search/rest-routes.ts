import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { AqlLimits } from './aql-limits.ts';
import { findBuilds } from './aql-builds.ts';
import type { ItemRelation } from './aql-build-items.ts';
import { parseAqlOfDomain } from './aql-parser.ts';
import { renderAqlItems } from './aql-render.ts';
import { checksumCriterion, gavcQuery, nameTerm, propertyQuery } from './builders.ts';
import { all, field, FILES_ONLY, type Criterion, type ItemQuery } from './criteria.ts';
import { streamResults } from './json-stream.ts';
import {
  artifactVersions,
  latestVersion,
  type LatestVersionQuestion,
  type VersionsQuestion,
} from './latest-version.ts';
import { MAX_TIME_MS } from './relative-time.ts';
import { SEARCH_MESSAGES as M } from './messages.ts';
import type { ItemRow } from './queries.ts';
import { storageUriRenderer } from './storage-uri.ts';

type SearchRequest = FastifyRequest<{ Querystring: Record<string, string | undefined> }>;

const BASE = '/artifactory/api/search';
const READER = { config: { permission: 'reader' as const } };

const listOf = (value: string | undefined) =>
  value
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** A time in milliseconds since 1970 (the scripted API's dates). */
function timeParam(query: Record<string, string | undefined>, name: string, fallback?: number) {
  const text = query[name];
  if (text === undefined || text === '') {
    if (fallback !== undefined) return new Date(fallback).toISOString();
    throw new BadRequest(M.dateRequired(name), name);
  }
  const time = Number(text);
  if (!Number.isSafeInteger(time) || time < 0 || time > MAX_TIME_MS)
    throw new BadRequest(M.dateRequired(name), name);
  return new Date(time).toISOString();
}

const filesWhere = (where: Criterion, sort: ItemQuery['sort'] = []): ItemQuery => ({
  where: all(where, FILES_ONLY),
  sort,
  scope: 'artifacts',
});

/**
 * The scripted search API in Artifactory's shapes (docs/search.md): AQL, and the searches
 * CI scripts use by name, checksum, properties, GAVC, dates and usage. Answers are streamed
 * and never capped; each holds only what the caller may read.
 */
export async function searchRestRoutes(
  app: FastifyInstance,
  { services, aqlLimits }: { services: Services; aqlLimits: AqlLimits },
) {
  const { search } = services;
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  /** Streams `{"results":[{"uri":...}]}` for a query, with what X-Result-Detail asks for. */
  async function uriResults(
    request: SearchRequest,
    reply: FastifyReply,
    query: ItemQuery,
    extra?: (rows: ItemRow[]) => Promise<Record<string, unknown>[]>,
  ) {
    const rows = await search.stream(request.principal, query, {
      repos: listOf(request.query.repos),
    });
    const render = storageUriRenderer(request, search);
    const body = await streamResults(rows, async (chunk) => {
      const rendered = await render(chunk);
      const added = extra ? await extra(chunk) : [];
      return rendered.map((entry, index) => ({ ...entry, ...added[index] }));
    });
    return reply.type('application/json').send(body);
  }

  // Bodies up to the server's own limit are read, so that a query past the AQL limit is
  // told which limit it passed; an admin may set the AQL limit higher than the server's.
  const bodyLimit = Math.max(app.initialConfig.bodyLimit ?? 0, aqlLimits.maxBytes + 1);
  const aqlRoute = { ...READER, bodyLimit };
  app.post(`${BASE}/aql`, aqlRoute, async (request, reply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    if (text.trim() === '') throw new BadRequest(M.aqlBody);
    const parsed = parseAqlOfDomain(text, aqlLimits);
    if (parsed.domain === 'builds') {
      const decider = await services.access.forBuilds(request.principal);
      // Item relations answer only through items the caller may read (all, for an admin).
      const readableItems = decider.admin
        ? undefined
        : (relation: ItemRelation) => search.linkedItemIds(request.principal, relation);
      return findBuilds(services.db, decider, parsed.query, readableItems);
    }
    const aql = parsed.query;
    const query: ItemQuery = { where: aql.where, sort: aql.sort, scope: 'artifacts' };
    const rows = await search.stream(request.principal, query, {
      skip: aql.offset,
      limit: aql.limit,
    });
    const body = await streamResults(
      rows,
      (chunk) => renderAqlItems(chunk, aql, search),
      (count) => ({
        range: {
          start_pos: aql.offset,
          end_pos: aql.offset + count,
          total: count,
          ...(aql.limit !== undefined ? { limit: aql.limit } : {}),
        },
      }),
    );
    return reply.type('application/json').send(body);
  });

  app.get(`${BASE}/artifact`, READER, (request: SearchRequest, reply) => {
    const name = nameTerm(request.query.name, false);
    return uriResults(
      request,
      reply,
      filesWhere(field('name', '$match', name, true), [{ field: 'name', direction: 'asc' }]),
    );
  });

  app.get(`${BASE}/gavc`, READER, (request: SearchRequest, reply) => {
    const { g, a, v, c } = request.query;
    return uriResults(
      request,
      reply,
      gavcQuery({ groupID: g, artifactID: a, version: v, classifier: c }),
    );
  });

  app.get(`${BASE}/prop`, READER, (request: SearchRequest, reply) => {
    const pairs = Object.entries(request.query)
      .filter(([key]) => key !== 'repos')
      .map(([key, values]) => ({ key, values: listOf(values) ?? [] }));
    return uriResults(request, reply, propertyQuery(pairs));
  });

  app.get(`${BASE}/checksum`, READER, (request: SearchRequest, reply) => {
    const { sha1, md5, sha256 } = request.query;
    const given = [sha256, sha1, md5].filter((value) => value?.trim());
    if (given.length === 0) throw new BadRequest(M.invalidChecksumLength, 'checksum');
    return uriResults(request, reply, filesWhere(all(...given.map(checksumCriterion))));
  });

  app.get(`${BASE}/creation`, READER, (request: SearchRequest, reply) => {
    const from = timeParam(request.query, 'from');
    const to = timeParam(request.query, 'to', Date.now());
    const where = all(field('created', '$gte', from), field('created', '$lte', to));
    return uriResults(
      request,
      reply,
      filesWhere(where, [{ field: 'created', direction: 'asc' }]),
      async (rows) => rows.map((row) => ({ created: new Date(row.created_at).toISOString() })),
    );
  });

  app.get(`${BASE}/dates`, READER, async (request: SearchRequest, reply) => {
    await services.downloadStats.flush();
    const from = timeParam(request.query, 'from');
    const to = timeParam(request.query, 'to', Date.now());
    const wanted = listOf(request.query.dateFields) ?? [];
    const known = ['created', 'lastModified', 'lastDownloaded'];
    const unknown = wanted.find((name) => !known.includes(name));
    if (wanted.length === 0 || unknown)
      throw new BadRequest(`dateFields must list some of ${known.join(', ')}`, 'dateFields');
    const inRange = (name: string): Criterion =>
      name === 'lastDownloaded'
        ? all(
            { kind: 'downloaded', op: '$gte', value: from },
            { kind: 'downloaded', op: '$lte', value: to },
          )
        : all(
            field(name === 'created' ? 'created' : 'modified', '$gte', from),
            field(name === 'created' ? 'created' : 'modified', '$lte', to),
          );
    return uriResults(
      request,
      reply,
      filesWhere({ kind: 'or', items: wanted.map(inRange) }),
      async (rows) => {
        const downloads = await services.downloadStats.lastDownloads(rows.map((row) => row.id));
        return rows.map((row) => ({
          created: new Date(row.created_at).toISOString(),
          lastModified: new Date(row.modified_at).toISOString(),
          lastDownloaded: downloads.get(row.id)?.toISOString() ?? '',
        }));
      },
    );
  });

  app.get(`${BASE}/usage`, READER, async (request: SearchRequest, reply) => {
    // Downloads are counted in memory for a second: the search sees them all.
    await services.downloadStats.flush();
    const notUsedSince = timeParam(request.query, 'notUsedSince');
    const createdBefore = timeParam(request.query, 'createdBefore', Date.parse(notUsedSince));
    const where = all(field('created', '$lt', createdBefore), {
      kind: 'downloaded',
      op: '$gte',
      value: notUsedSince,
      negated: true,
    });
    return uriResults(request, reply, filesWhere(where), async (rows) => {
      const downloads = await services.downloadStats.lastDownloads(rows.map((row) => row.id));
      return rows.map((row) => ({ lastDownloaded: downloads.get(row.id)?.toISOString() ?? '' }));
    });
  });

  /** `g`, `a` and `v` (a version or a pattern) of the Maven-layout version searches. */
  const versionsQuestion = (request: SearchRequest): VersionsQuestion => {
    const { g, a, v } = request.query;
    return {
      group: g?.trim() || undefined,
      artifact: a?.trim() || undefined,
      version: v?.trim() || undefined,
      repos: listOf(request.query.repos),
    };
  };
  /** latestVersion names one artifact: both `g` and `a`. */
  const versionQuestion = (request: SearchRequest): LatestVersionQuestion => {
    const { group, artifact, ...rest } = versionsQuestion(request);
    if (!group || !artifact) throw new BadRequest('Both g and a are required', 'g');
    return { group, artifact, ...rest };
  };

  app.get(`${BASE}/latestVersion`, READER, async (request: SearchRequest, reply) => {
    const found = await latestVersion(search, request.principal, versionQuestion(request));
    if (!found) throw new NotFound(M.versionNotFound);
    return reply.type('text/plain').send(found);
  });

  // `remote=1` asks Artifactory to ask remote repositories' upstreams too; Depot answers from
  // what is stored and cached (docs/search.md).
  app.get(`${BASE}/versions`, READER, async (request: SearchRequest) => {
    const results = await artifactVersions(search, request.principal, versionsQuestion(request));
    if (results.length === 0) throw new NotFound(M.versionNotFound);
    return { results };
  });
}

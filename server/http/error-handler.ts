import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseFailure } from '../db/database-errors.ts';
import { AccessDenied, DepotError, TooManyRequests } from '../errors.ts';
import { endedForSlowBody } from './slow-bodies.ts';
import { isApiPath, noSuchApi } from './unknown-api.ts';
import { keywordMessage, REQUIRED_MESSAGE } from '../schemas/validation-wording.ts';

/** The one error shape every call answers with (docs/console-api.md). */
export interface ErrorBody {
  errors: { status: number; message: string; field?: string; code?: string }[];
  code?: string;
  /** The message again, where npm looks for it (it prints `error` after the status). */
  error?: string;
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Ajv's params key holding the failed keyword's value (`{limit: 64}`, `{type: 'integer'}`). */
function expectedOf(params: Record<string, unknown>): unknown {
  return params.limit ?? params.format ?? params.type ?? params.multipleOf ?? params.pattern;
}

/**
 * Turns the first schema violation into a message a person can act on, naming the field:
 * the schema's own wording (`errorMessage`), else the spec's words for the keyword, never
 * Ajv's text (`must match pattern "..."`).
 */
export function describeValidation(issues: AjvIssue[]): { message: string; field?: string } {
  const issue = issues.find((i) => i.keyword === 'errorMessage') ?? issues[0];
  const path = issue.instancePath.split('/').filter(Boolean);
  const pathField = path[0];
  switch (issue.keyword) {
    case 'errorMessage':
      return { message: issue.message ?? 'Invalid value', field: pathField };
    case 'required':
      return {
        message: REQUIRED_MESSAGE,
        field: String(issue.params.missingProperty),
      };
    case 'additionalProperties':
      return {
        message: `Unknown field '${String(issue.params.additionalProperty)}'`,
        field: String(issue.params.additionalProperty),
      };
    default: {
      const property = path.filter((part) => !/^\d+$/.test(part)).at(-1);
      const message = keywordMessage({
        keyword: issue.keyword,
        property,
        expected: expectedOf(issue.params),
      });
      // Without a field to show it beside, the message says which value it is about.
      return pathField
        ? { message, field: pathField }
        : { message: `The request body: ${message}` };
    }
  }
}

function send(
  reply: FastifyReply,
  status: number,
  message: string,
  extra: Partial<ErrorBody['errors'][0]> = {},
) {
  const body: ErrorBody = { errors: [{ status, message, ...extra }] };
  if (extra.code) body.code = extra.code;
  if (reply.request.url.startsWith('/artifactory/api/npm/')) body.error = message;
  return reply.status(status).type('application/json').send(body);
}

/**
 * Errors Fastify meets before routing (a URL with broken percent-encoding, a bad
 * Content-Type header) answer in the same shape as every other error.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  return send(reply, error.statusCode ?? 400, error.message);
}

/** What a request's body stream fails with when its client's connection is gone. */
const CONNECTION_GONE = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * The client closed its connection (or Depot closed it for a body too slow) before the
 * request was done: nothing can be answered and nothing is wrong with Depot, so it is one
 * line at info, without a stack, rather than an error.
 */
function clientWentAway(error: FastifyError, request: FastifyRequest): boolean {
  if (request.raw.socket?.destroyed !== true || !CONNECTION_GONE.has(error.code)) return false;
  if (!endedForSlowBody(request.raw))
    request.log.info({ reason: error.message }, 'the client closed the connection mid-request');
  return true;
}

/** Maps typed errors, validation failures and malformed bodies to HTTP; a 500 is a bug. */
export function installErrorHandler(
  app: FastifyInstance,
  options: {
    hideUnauthorizedResources: () => Promise<boolean>;
    /** Told of each request no route matched, before it is answered (the metrics count it). */
    onNotFound?: (request: FastifyRequest, reply: FastifyReply) => void;
  },
): void {
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientWentAway(error, request)) return send(reply, 400, error.message);
    if (
      error instanceof AccessDenied &&
      error.notFoundMessage &&
      (await options.hideUnauthorizedResources())
    ) {
      return send(reply, 404, error.notFoundMessage);
    }
    if (error instanceof TooManyRequests) {
      reply.header('Retry-After', String(error.retryAfterSeconds));
    }
    if (error instanceof DepotError) {
      if (error.statusCode === 401 && !request.url.startsWith('/ui/')) {
        // Scripts and package clients expect the challenge; the console must not get one,
        // or the browser would pop up its own sign-in dialog.
        reply.header('WWW-Authenticate', 'Basic realm="Depot"');
      }
      return send(reply, error.statusCode, error.message, { field: error.field, code: error.code });
    }
    const database = databaseFailure(error);
    if (database) {
      // The database's own words (which file, which disk) are for the operator, not the caller.
      request.log.warn({ err: error }, 'the database failed the request');
      return send(reply, database.statusCode, database.message);
    }
    if (error.validation) {
      // The words stand alone (a schema's own `errorMessage` is the spec's, verbatim); the
      // field they are about goes beside them, for a form or a script to show.
      const { message, field } = describeValidation(error.validation as AjvIssue[]);
      return send(reply, 400, message, { field });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large.
      return send(reply, status, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, 'Error. Please check the product logs.');
  });

  app.setNotFoundHandler((request, reply) => {
    options.onNotFound?.(request, reply);
    return send(
      reply,
      404,
      isApiPath(request.url)
        ? noSuchApi(request.method, request.url).message
        : `The path ${request.url.split('?')[0]} could not be found.`,
    );
  });
}

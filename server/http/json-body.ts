import fp from 'fastify-plugin';
import { BadRequest } from '../errors.ts';
import { deeperThan, JSON_MAX_DEPTH } from './json-nesting.ts';

/**
 * Fastify's own JSON body parser, behind a check of the body's nesting: deeper than
 * JSON_MAX_DEPTH is a 400 naming the limit and where it was passed.
 */
export const jsonBodyDepthLimit = fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const at = deeperThan(body as string, JSON_MAX_DEPTH);
      if (at === undefined) return parse(request, body as string, done);
      done(
        new BadRequest(
          `The request body nests deeper than ${JSON_MAX_DEPTH} levels (the limit) at position ${at}`,
        ),
        undefined,
      );
    });
  },
  { name: 'json-body-depth-limit' },
);

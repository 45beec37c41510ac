import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import { BadRequest } from '../errors.ts';
import { deeperThan, JSON_MAX_DEPTH } from './json-nesting.ts';

export const NOT_UTF8 = 'The request body is not valid UTF-8';

/**
 * Fastify's own JSON body parser, behind two checks: a body that is not UTF-8 (RFC 8259) is a
 * 400, rather than names silently stored with U+FFFD where its bytes were; and one nested
 * deeper than JSON_MAX_DEPTH is a 400 naming the limit and where it was passed.
 */
export const jsonBodyDepthLimit = fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const bytes = body as Buffer;
      if (!isUtf8(bytes)) return done(new BadRequest(NOT_UTF8), undefined);
      const text = bytes.toString('utf8');
      const at = deeperThan(text, JSON_MAX_DEPTH);
      if (at === undefined) return parse(request, text, done);
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

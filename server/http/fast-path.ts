import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** The line Fastify's own logger writes when a request completes, for answers given before it. */
export function logFastAnswer(logger: Logger, request: IncomingMessage) {
  if (logger.isLevelEnabled('info'))
    logger.info(
      { req: { method: request.method, url: request.url }, res: { statusCode: 200 } },
      'request completed',
    );
}

/**
 * Wraps a fast path's answer: a failure before anything was written leaves the request to
 * the full route (logged as a warning when `warnOnFallback`: an invalid name is no news for
 * the manifest path); one after the headers went cannot be taken back, so the connection
 * ends short and the failure is logged.
 */
export function guardFastPath(
  name: string,
  logger: Logger,
  answer: (request: IncomingMessage, response: ServerResponse) => boolean,
  { warnOnFallback }: { warnOnFallback: boolean },
) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    try {
      return answer(request, response);
    } catch (error) {
      if (!response.headersSent) {
        if (warnOnFallback)
          logger.warn({ err: error }, `the ${name} fast path failed; taking the full route`);
        return false;
      }
      logger.error({ err: error }, `the ${name} fast path failed while answering`);
      response.destroy();
      return true;
    }
  };
}

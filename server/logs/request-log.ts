import type { IncomingMessage, ServerResponse } from 'node:http';
import { lineField } from './log-line.ts';
import { openLogDestination, type LogRotation } from './log-destination.ts';

/** One line a request, as Artifactory's request log has it (docs/logs.md). */
export const REQUEST_LOG_FILE = 'depot-request.log';

/** A status for an answer the connection ended before it was whole (nginx's word for it). */
export const ANSWER_CUT_SHORT = 499;

const CALLER = Symbol('depot.caller');
type NotedRequest = IncomingMessage & { [CALLER]?: { name: string; address?: string } };

/**
 * Who a request was answered for: the identity plugin and the download fast path say it.
 * `address` is the client's as a trusted proxy reports it, when Fastify knows it.
 */
export function noteCaller(request: IncomingMessage, name: string, address?: string) {
  (request as NotedRequest)[CALLER] = { name, address };
}

/**
 * Path segments that are secrets themselves (npm's token and web-login ids): a log line
 * shows the route's shape there, never the value.
 */
const SECRET_SEGMENTS = [
  /(\/-\/user\/token\/)[^/]+/,
  /(\/-\/npm\/v1\/tokens\/token\/)[^/]+/,
  /(\/npm\/login\/)[^/]+/,
  /(\/-\/v1\/done\/)[^/]+/,
];

/**
 * The path of a request as logged: no query string (tokens travel there), no secret
 * segments, and nothing that could break the line apart (a `|` or a control character).
 */
export function loggedPath(url: string | undefined): string {
  let path = (url ?? '').split('?', 1)[0];
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  return lineField(path);
}

export interface RequestLog {
  /** Writes the request's line once its answer is done or cut short. */
  watch(request: IncomingMessage, response: ServerResponse): void;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/**
 * `time|node|client address|user|method|path|status|bytes|duration ms`. Bytes are what the
 * answer put on the connection, headers included: the socket's count across the answer,
 * which a keep-alive connection's earlier answers do not touch since HTTP/1.1 answers one
 * request at a time.
 */
export function createRequestLog(logDir: string, nodeId: string, rotation: LogRotation) {
  const file = openLogDestination(logDir, REQUEST_LOG_FILE, rotation);
  const requestLog: RequestLog = {
    watch(request, response) {
      const started = performance.now();
      const socket = request.socket;
      const bytesBefore = socket.bytesWritten;
      response.once('close', () => {
        const status = response.writableFinished ? response.statusCode : ANSWER_CUT_SHORT;
        const caller = (request as NotedRequest)[CALLER];
        const line = [
          new Date().toISOString(),
          nodeId,
          caller?.address ?? socket.remoteAddress ?? '-',
          caller ? lineField(caller.name) : '-',
          request.method ?? '-',
          loggedPath(request.url),
          status,
          socket.bytesWritten - bytesBefore,
          Math.round(performance.now() - started),
        ].join('|');
        file.write(`${line}\n`);
      });
    },
    close: () =>
      new Promise((resolve) => {
        file.once('close', () => resolve());
        file.end();
      }),
  };
  return requestLog;
}

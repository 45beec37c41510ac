import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/** How fast a request body must arrive (server/config.ts, docs/security.md "Slow requests"). */
export interface BodyRateLimits {
  /** The least a body must average, in bytes a second, over each window. */
  minBytesPerSecond: number;
  /** The window the rate is averaged over, in seconds. */
  windowSeconds: number;
}

export const SLOW_BODY_MESSAGE = (limits: BodyRateLimits) =>
  `The request body arrived too slowly: under ${limits.minBytesPerSecond} bytes a second over ${limits.windowSeconds} s`;

/** Requests this guard ended: the error their handler then meets is not logged again. */
const endedHere = new WeakSet<IncomingMessage>();

/** Whether the guard ended this request's connection for a slow body (it logged that itself). */
export const endedForSlowBody = (request: IncomingMessage): boolean => endedHere.has(request);

interface Watched {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
  bytesAtWindowStart: number;
  /** Time in this window during which Depot was ready to read more of the body. */
  waitedMs: number;
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

function timeoutAnswer(limits: BodyRateLimits): string {
  const body = JSON.stringify({ errors: [{ status: 408, message: SLOW_BODY_MESSAGE(limits) }] });
  return [
    'HTTP/1.1 408 Request Timeout',
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Ends request bodies that trickle in, as Kestrel's MinRequestBodyDataRate does: over each
 * window a body must bring at least the minimum rate's worth of bytes, or the client gets
 * 408 and its connection is closed. A large upload on a slow link keeps going for as long
 * as it needs; a client sending a byte every few seconds to hold a request open is ended
 * within one window. Time during which Depot itself is not reading (the socket paused for
 * backpressure, say while the disk catches up, or before the handler starts to read) does
 * not count against the client. One timer serves every body in flight.
 */
export function createBodyRateGuard(limits: BodyRateLimits, logger: Logger) {
  const windowMs = limits.windowSeconds * 1000;
  const tickMs = Math.min(1000, windowMs / 5);
  const minBytesPerWindow = limits.minBytesPerSecond * limits.windowSeconds;
  const answer = timeoutAnswer(limits);
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;

  function end({ request, response, socket }: Watched, received: number) {
    endedHere.add(request);
    logger.info(
      { req: { method: request.method, url: request.url }, receivedInWindow: received },
      'request body arrived too slowly; answered 408 and closed the connection',
    );
    const close = () => socket.destroy();
    if (response.headersSent || !socket.writable) return close();
    socket.write(answer, close);
    // A client that reads nothing either would keep the answer from ever flushing.
    setTimeout(close, tickMs).unref();
  }

  function check() {
    for (const entry of watched) {
      const { request, socket } = entry;
      if (request.complete || socket.destroyed) {
        watched.delete(entry);
        continue;
      }
      if (socket.isPaused()) continue;
      entry.waitedMs += tickMs;
      if (entry.waitedMs < windowMs) continue;
      const received = socket.bytesRead - entry.bytesAtWindowStart;
      if (received < minBytesPerWindow) {
        watched.delete(entry);
        end(entry, received);
        continue;
      }
      entry.bytesAtWindowStart = socket.bytesRead;
      entry.waitedMs = 0;
    }
    if (watched.size === 0) stop();
  }

  function stop() {
    clearInterval(timer);
    timer = undefined;
  }

  return {
    /** Starts watching a request's body, if it has one still to come. */
    watch(request: IncomingMessage, response: ServerResponse) {
      if (!hasBody(request) || request.complete) return;
      watched.add({
        request,
        response,
        socket: request.socket,
        bytesAtWindowStart: request.socket.bytesRead,
        waitedMs: 0,
      });
      timer ??= setInterval(check, tickMs).unref();
    },
    stop,
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../http/permissions.ts';

/** Who calls a package format's endpoint, and where the answer's log lines go. */
export interface FormatCaller {
  principal: Principal;
  log: FastifyBaseLogger;
}

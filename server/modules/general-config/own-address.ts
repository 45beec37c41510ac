import type { FastifyRequest } from 'fastify';
import type { GeneralConfigService } from './service.ts';

/**
 * The address Depot names itself by in what it writes (Set Me Up, npm tarball and sign-in
 * URLs): the general configuration's base URL when an admin set one (behind a proxy that
 * rewrites the host, the only one users can reach), else the address the request came to.
 * No trailing slash.
 */
export async function ownAddress(
  request: FastifyRequest,
  generalConfig: GeneralConfigService,
): Promise<string> {
  return (await generalConfig.baseUrl()) ?? requestAddress(request);
}

/** The address a request came to (behind a trusted proxy: the forwarded one). */
export function requestAddress(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

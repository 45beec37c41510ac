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
  const { baseUrl } = await generalConfig.get();
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

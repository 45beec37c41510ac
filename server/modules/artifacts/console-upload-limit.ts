import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { PayloadTooLarge } from '../../errors.ts';
import type { GeneralConfigService } from '../general-config/service.ts';

const MB = 1024 * 1024;

export const uploadTooLarge = (limitMb: number) =>
  new PayloadTooLarge(
    `The file is larger than the console's upload limit of ${limitMb} MB (File Upload In UI Max Size in the General Configuration)`,
  );

/**
 * A deploy's body, held to the general configuration's console upload limit when the deploy
 * comes from the console (a session's request; scripts and package clients are not
 * limited, as in Artifactory). A declared larger body is refused before a byte is read; a
 * chunked one fails as it passes the limit, and the filestore drops what it staged.
 */
export async function consoleUploadBody(
  request: FastifyRequest,
  declaredLength: number,
  generalConfig: GeneralConfigService,
): Promise<Readable> {
  if (request.principal.via !== 'session') return request.raw;
  const { fileUploadMaxSizeMb: limitMb } = await generalConfig.get();
  if (!limitMb) return request.raw;
  if (declaredLength > limitMb * MB) throw uploadTooLarge(limitMb);
  return Readable.from(capped(request.raw, limitMb));
}

async function* capped(source: Readable, limitMb: number) {
  let size = 0;
  // Never destroyed: that would close the socket before the client reads why it failed.
  for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitMb * MB) throw uploadTooLarge(limitMb);
    yield chunk;
  }
}

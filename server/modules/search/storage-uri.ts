import type { FastifyRequest } from 'fastify';
import type { ItemRow } from './queries.ts';
import type { SearchService } from './service.ts';

const iso = (date: Date | string) => new Date(date).toISOString();
const encodedPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Properties as the storage API answers them: each key with its values. */
function grouped(properties: { key: string; value: string }[] = []) {
  const byKey: Record<string, string[]> = {};
  for (const { key, value } of properties) (byKey[key] ??= []).push(value);
  return byKey;
}

/**
 * How the scripted searches answer an item: its storage API URI, plus its info and
 * properties when the caller asks with `X-Result-Detail: info, properties` (as Artifactory).
 */
export function storageUriRenderer(request: FastifyRequest, search: SearchService) {
  const origin = `${request.protocol}://${request.host}/artifactory`;
  const detail = String(request.headers['x-result-detail'] ?? '').toLowerCase();
  const withInfo = detail.includes('info');
  const withProperties = detail.includes('properties');
  return async (rows: ItemRow[]) => {
    if (withInfo) await search.md5sOf(rows);
    const properties = withProperties ? await search.propertiesOf(rows) : undefined;
    return rows.map((row) => {
      const path = encodedPath(row.path);
      const info = withInfo && {
        repo: row.repo,
        path: `/${row.path}`,
        created: iso(row.created_at),
        createdBy: row.created_by,
        lastModified: iso(row.modified_at),
        modifiedBy: row.modified_by,
        lastUpdated: iso(row.modified_at),
        downloadUri: `${origin}/${row.repo}/${path}`,
        mimeType: row.mime_type ?? undefined,
        size: String(row.size),
        checksums: { sha1: row.sha1, md5: row.md5, sha256: row.sha256 },
        originalChecksums: { sha1: row.sha1, sha256: row.sha256 },
      };
      return {
        uri: `${origin}/api/storage/${row.repo}/${path}`,
        ...(info || {}),
        ...(properties ? { properties: grouped(properties.get(row.id)) } : {}),
      };
    });
  };
}

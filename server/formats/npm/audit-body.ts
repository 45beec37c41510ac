import { promisify } from 'node:util';
import { brotliDecompress, gunzip, gzip, inflate } from 'node:zlib';
import { BadRequest } from '../../errors.ts';

/**
 * npm audit's request bodies, read so that the names of packages private to this Depot can
 * be left out before the body goes upstream (docs/npm.md, "npm audit").
 *
 * Two shapes exist. npm 7 and later POST `/-/npm/v1/security/advisories/bulk` with
 * `{ name: [versions] }` (npm 11 sends only that one; npm 7 to 9 fell back to the next
 * shape when the bulk call failed). npm 6 POSTs `/-/npm/v1/security/audits` (and
 * `/audits/quick` during install) with the project's tree:
 * `{ name, version, requires: { name: range }, dependencies: { name: { version, requires,
 * dependencies, dev, ... } } }`, nested to any depth.
 */

/** Where npm 6 (and npm 7 to 9 when the bulk call fails) asks, besides the bulk path. */
export const LEGACY_AUDIT_PATHS = [
  '-/npm/v1/security/audits',
  '-/npm/v1/security/audits/quick',
] as const;

// The request is at most 16 MB as sent (gzipped); a tree that unpacks beyond this is no
// project's audit, and is refused rather than held in memory.
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
const unpackers: Record<string, (body: Buffer, options: object) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};
const pack = promisify(gzip);

export type AuditShape = 'bulk' | 'tree';
export type AuditBody = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The body as npm sent it (gzipped, or not), as JSON; anything else is the client's mistake. */
export async function decodeAuditBody(body: Buffer, encoding: string | undefined) {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  let text: Buffer = body;
  if (name !== 'identity' && name !== '') {
    const unpack = unpackers[name];
    if (!unpack) throw new BadRequest(`An audit body encoded as '${name}' cannot be read`);
    try {
      text = await unpack(body, { maxOutputLength: MAX_DECODED_BYTES });
    } catch {
      throw new BadRequest(`The audit body is not valid ${name} data, or unpacks beyond 64 MB`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    throw new BadRequest('The audit body is not JSON');
  }
  if (!isObject(parsed)) throw new BadRequest('The audit body is not a JSON object');
  return parsed;
}

/** Every package name the body mentions (keys of the bulk map; keys anywhere in a tree). */
export function auditNames(body: AuditBody, shape: AuditShape): string[] {
  if (shape === 'bulk') return Object.keys(body);
  const names = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    if (isObject(node.requires)) for (const name of Object.keys(node.requires)) names.add(name);
    if (!isObject(node.dependencies)) return;
    for (const [name, child] of Object.entries(node.dependencies)) {
      names.add(name);
      if (isObject(child)) walk(child);
    }
  };
  walk(body);
  if (typeof body.name === 'string') names.add(body.name);
  return [...names];
}

/** The body without the `held` names: not as keys, not in any `requires`, not as the root. */
export function withoutNames(body: AuditBody, shape: AuditShape, held: Set<string>): AuditBody {
  const keep = (map: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(map).filter(([name]) => !held.has(name)));
  if (shape === 'bulk') return keep(body);
  const prune = (node: Record<string, unknown>): Record<string, unknown> => {
    const copy = { ...node };
    if (isObject(node.requires)) copy.requires = keep(node.requires);
    if (isObject(node.dependencies)) {
      copy.dependencies = Object.fromEntries(
        Object.entries(keep(node.dependencies)).map(([name, child]) => [
          name,
          isObject(child) ? prune(child) : child,
        ]),
      );
    }
    return copy;
  };
  const pruned = prune(body);
  // The project's own name is private too when a local repository publishes it.
  if (typeof body.name === 'string' && held.has(body.name)) {
    delete pruned.name;
    delete pruned.version;
  }
  return pruned;
}

/** The body to send upstream: JSON, gzipped as npm sends it. */
export async function encodeAuditBody(body: AuditBody) {
  return {
    body: await pack(Buffer.from(JSON.stringify(body), 'utf8')),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  };
}

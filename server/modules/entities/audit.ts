import { changedFields, type EntityDocument } from './documents.ts';
import type { AuditEntry } from './queries.ts';
import { masked } from './secrets.ts';

type Change = { from?: unknown; to?: unknown };

/**
 * The audit entry of one change: for each top-level field that changed, what it was and what
 * it became, every secret masked (a changed secret shows as masked on both sides).
 */
export function auditEntry(
  base: Pick<AuditEntry, 'entity' | 'key' | 'actor'>,
  secrets: string[],
  before: EntityDocument | undefined,
  after: EntityDocument | undefined,
): AuditEntry {
  const action = before === undefined ? 'create' : after === undefined ? 'delete' : 'update';
  const from = masked(secrets, before ?? {});
  const to = masked(secrets, after ?? {});
  const changes: Record<string, Change> = {};
  for (const field of changedFields(before ?? {}, after ?? {})) {
    const change: Change = {};
    if (from[field] !== undefined) change.from = from[field];
    if (to[field] !== undefined) change.to = to[field];
    changes[field] = change;
  }
  return { ...base, action, changes };
}

import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../server/db/migrations/index.ts';

/**
 * The migrations Depots already running have applied. Kysely's migrator refuses to start a
 * database whose applied migrations are not the first ones of its list ("corrupted
 * migrations"), so a new migration goes after all of these, never into a gap between them
 * (0041 or 0043 here would stop every upgraded Depot). Append names once they have shipped.
 */
const SHIPPED = [
  '0001-identity',
  '0002-storage',
  '0003-remote-misses',
  '0004-blob-touched',
  '0005-repo-layouts',
  '0006-maintenance',
  '0007-remote-metadata',
  '0008-change-notifications',
  '0009-tree-children',
  '0010-watches',
  '0011-property-sets',
  '0012-permission-targets',
  '0015-access-tokens',
  '0016-user-security',
  '0017-user-tokens',
  '0018-projects',
  '0019-packages',
  '0020-search',
  '0021-permission-sections',
  '0022-repository-properties',
  '0023-token-owners',
  '0024-sign-in-locks',
  '0025-entity-documents',
  '0026-docker',
  '0027-webhooks',
  '0028-builds',
  '0030-npm-stars',
  '0032-cluster-nodes',
  '0039-general-config-support-bundles',
  '0040-retention',
  '0042-blob-sha512',
  '0047-entity-document-changes',
  '0048-webhooks-fillfactor',
  '0049-support-bundle-parts',
  '0050-builds-latest',
  '0054-builds-rows',
  '0056-webhooks-no-row-checks',
  '0058-webhooks-outbox-notify',
  '0059-nodes-sha256-repository',
  '0060-build-files-content',
  '0061-blobs-written-xid',
];

describe('the migrations', () => {
  const names = Object.keys(MIGRATIONS);

  it('are listed in the order their names sort, the order they run in', () => {
    expect(names).toEqual([...names].sort());
  });

  it('begin with the ones that shipped, so a database that applied them upgrades', () => {
    expect(names.slice(0, SHIPPED.length)).toEqual(SHIPPED);
  });
});

import { createHash } from 'node:crypto';
import type { Migration } from 'kysely';
import * as identity from './0001-identity.ts';
import * as storage from './0002-storage.ts';
import * as remoteMisses from './0003-remote-misses.ts';
import * as blobTouched from './0004-blob-touched.ts';
import * as repoLayouts from './0005-repo-layouts.ts';
import * as maintenance from './0006-maintenance.ts';
import * as remoteMetadata from './0007-remote-metadata.ts';
import * as changeNotifications from './0008-change-notifications.ts';
import * as treeChildren from './0009-tree-children.ts';
import * as watches from './0010-watches.ts';
import * as propertySets from './0011-property-sets.ts';
import * as permissionTargets from './0012-permission-targets.ts';
import * as accessTokens from './0015-access-tokens.ts';
import * as userSecurity from './0016-user-security.ts';
import * as userTokens from './0017-user-tokens.ts';
import * as projects from './0018-projects.ts';
import * as packages from './0019-packages.ts';
import * as search from './0020-search.ts';
import * as permissionSections from './0021-permission-sections.ts';
import * as repositoryProperties from './0022-repository-properties.ts';
import * as tokenOwners from './0023-token-owners.ts';
import * as signInLocks from './0024-sign-in-locks.ts';
import * as entityDocuments from './0025-entity-documents.ts';
import * as docker from './0026-docker.ts';
import * as webhooks from './0027-webhooks.ts';
import * as builds from './0028-builds.ts';
import * as npmStars from './0030-npm-stars.ts';
import * as clusterNodes from './0032-cluster-nodes.ts';
import * as generalConfigSupportBundles from './0039-general-config-support-bundles.ts';
import * as retention from './0040-retention.ts';
import * as blobSha512 from './0042-blob-sha512.ts';
import * as entityDocumentChanges from './0047-entity-document-changes.ts';
import * as webhooksFillfactor from './0048-webhooks-fillfactor.ts';
import * as supportBundleParts from './0049-support-bundle-parts.ts';
import * as buildsLatest from './0050-builds-latest.ts';
import * as buildsRows from './0054-builds-rows.ts';
import * as webhooksNoRowChecks from './0056-webhooks-no-row-checks.ts';
import * as webhooksOutboxNotify from './0058-webhooks-outbox-notify.ts';
import * as nodesSha256Repository from './0059-nodes-sha256-repository.ts';
import * as buildFilesContent from './0060-build-files-content.ts';
import * as blobsWrittenXid from './0061-blobs-written-xid.ts';

/** Every migration in order. Names sort; never rename or edit one that has shipped. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-identity': identity,
  '0002-storage': storage,
  '0003-remote-misses': remoteMisses,
  '0004-blob-touched': blobTouched,
  '0005-repo-layouts': repoLayouts,
  '0006-maintenance': maintenance,
  '0007-remote-metadata': remoteMetadata,
  '0008-change-notifications': changeNotifications,
  '0009-tree-children': treeChildren,
  '0010-watches': watches,
  '0011-property-sets': propertySets,
  '0012-permission-targets': permissionTargets,
  '0015-access-tokens': accessTokens,
  '0016-user-security': userSecurity,
  '0017-user-tokens': userTokens,
  '0018-projects': projects,
  '0019-packages': packages,
  '0020-search': search,
  '0021-permission-sections': permissionSections,
  '0022-repository-properties': repositoryProperties,
  '0023-token-owners': tokenOwners,
  '0024-sign-in-locks': signInLocks,
  '0025-entity-documents': entityDocuments,
  '0026-docker': docker,
  '0027-webhooks': webhooks,
  '0028-builds': builds,
  '0030-npm-stars': npmStars,
  '0032-cluster-nodes': clusterNodes,
  '0039-general-config-support-bundles': generalConfigSupportBundles,
  '0040-retention': retention,
  '0042-blob-sha512': blobSha512,
  '0047-entity-document-changes': entityDocumentChanges,
  '0048-webhooks-fillfactor': webhooksFillfactor,
  '0049-support-bundle-parts': supportBundleParts,
  '0050-builds-latest': buildsLatest,
  '0054-builds-rows': buildsRows,
  '0056-webhooks-no-row-checks': webhooksNoRowChecks,
  '0058-webhooks-outbox-notify': webhooksOutboxNotify,
  '0059-nodes-sha256-repository': nodesSha256Repository,
  '0060-build-files-content': buildFilesContent,
  '0061-blobs-written-xid': blobsWrittenXid,
};

/**
 * Names the set of migrations: `npm install` prepares a database with exactly these applied
 * (scripts/pglite-migrated-template.ts), which a first start copies instead of migrating.
 */
export const MIGRATIONS_KEY = createHash('sha256')
  .update(Object.keys(MIGRATIONS).join('\n'))
  .digest('hex')
  .slice(0, 12);

import type { Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import { escapeLike } from '../artifacts/paths.ts';
import { emitEvents } from '../events/outbox.ts';
import { buildEvent } from './build-events.ts';

type Tx = Transaction<DepotDatabase>;

/** The build-info files a removal takes: a subtree of a repository, or nodes by id. */
export type DroppedFiles = { repositoryKey: string; path: string } | { nodeIds: number[] };

/**
 * A build is its build-info file: whatever removes the file (the build calls, a delete in
 * the tree or over `/artifactory/<repo>/<path>`, a move into the trash can, a move
 * elsewhere) removes the build. Every such path calls this in its transaction before the
 * nodes go, so each build removed is one `build.deleted` event that commits with it
 * (docs/builds.md, "Events"). The rows would go by cascade anyway; deleting them here is
 * what tells which builds went.
 */
export async function dropBuildsOf(tx: Tx, files: DroppedFiles, user: string): Promise<void> {
  if ('nodeIds' in files && files.nodeIds.length === 0) return;
  const dropped = await tx
    .deleteFrom('builds')
    .$if('nodeIds' in files, (q) =>
      q.where('node_id', 'in', (files as { nodeIds: number[] }).nodeIds),
    )
    .$if('repositoryKey' in files, (q) => {
      const { repositoryKey, path } = files as { repositoryKey: string; path: string };
      return q
        .where('repository_key', '=', repositoryKey)
        .$if(path !== '', (inner) =>
          inner.where((eb) =>
            eb.or([eb('path', '=', path), eb('path', 'like', `${escapeLike(path)}/%`)]),
          ),
        );
    })
    .returning(['name', 'number', 'started'])
    .execute();
  await emitEvents(
    tx,
    dropped.map((build) => buildEvent('deleted', build, user)),
  );
}

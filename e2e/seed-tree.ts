import { sql } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';

/**
 * Fills a Depot home with a large tree before its server starts: a real repository, one
 * real deployed file, and many more file rows that share that file's content (one blob,
 * many paths: what content addressing makes cheap). Bulk rows go straight into the tables,
 * as uploading 100,000 files one by one would take minutes; everything else is the real
 * server's code on the real database the server then opens.
 */
export interface TreeSeed {
  repoKey: string;
  /** A folder with `bigFolderSize` files directly inside it. */
  bigFolder: string;
  bigFolderSize: number;
  /** Optionally `spreadFolders` folders under `spread/` with `filesPerFolder` files each. */
  spreadFolders?: number;
  filesPerFolder?: number;
}

/** The name of the i-th (1-based) seeded file: sorts in seeding order. */
export const seededFileName = (i: number) => `f-${String(i).padStart(7, '0')}.bin`;

export async function seedTree(home: string, adminPassword: string, seed: TreeSeed): Promise<void> {
  const config = loadConfig({
    DEPOT_HOME: home,
    DEPOT_PORT: '0',
    DEPOT_ADMIN_PASSWORD: adminPassword,
    DEPOT_LOG_STDOUT: 'false',
    DEPOT_LOG_LEVEL: 'warn',
  });
  const { app, services, db } = await buildApp(config, createLogger(config));
  try {
    await services.repositories.create({
      key: seed.repoKey,
      rclass: 'local',
      packageType: 'generic',
    } as never);
    const authorization = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;
    const deploy = async (path: string) => {
      const response = await app.inject({
        method: 'PUT',
        url: `/artifactory/${seed.repoKey}/${path}`,
        headers: { authorization },
        payload: 'seeded content\n',
      });
      if (response.statusCode !== 201) throw new Error(`seed deploy: ${response.body}`);
      return response.json() as { checksums: { sha256: string }; size: string };
    };
    const sample = await deploy(`${seed.bigFolder}/${seededFileName(0)}`);
    const repo = await services.artifacts.repository(seed.repoKey);
    const sha256 = sample.checksums.sha256;
    const size = Number(sample.size);
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                         created_by, modified_by)
      select ${repo.id}, ${seed.bigFolder} || '/f-' || lpad(i::text, 7, '0') || '.bin',
             ${seed.bigFolder}, 'f-' || lpad(i::text, 7, '0') || '.bin', false, ${sha256},
             ${size}, 'seed', 'seed'
      from generate_series(1, ${seed.bigFolderSize}) as i`.execute(db);

    const folders = seed.spreadFolders ?? 0;
    if (folders > 0) {
      await deploy(`spread/${seededFileName(0)}`);
      await sql`
        insert into nodes (repository_id, path, parent_path, name, folder, size, created_by,
                           modified_by)
        select ${repo.id}, 'spread/d-' || lpad(d::text, 5, '0'), 'spread',
               'd-' || lpad(d::text, 5, '0'), true, 0, 'seed', 'seed'
        from generate_series(1, ${folders}) as d`.execute(db);
      await sql`
        insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                           created_by, modified_by)
        select ${repo.id}, 'spread/d-' || lpad(d::text, 5, '0') || '/f-' || lpad(i::text, 7, '0') || '.bin',
               'spread/d-' || lpad(d::text, 5, '0'), 'f-' || lpad(i::text, 7, '0') || '.bin',
               false, ${sha256}, ${size}, 'seed', 'seed'
        from generate_series(1, ${folders}) as d, generate_series(1, ${seed.filesPerFolder ?? 0}) as i`.execute(
        db,
      );
    }
  } finally {
    await app.close();
  }
}

import type { Database } from '../db/database.ts';
import type { FormatRuntime } from './format.ts';
import { dockerFormat } from './docker/format.ts';
import { dockerApiRoutes } from './docker/api-routes.ts';
import { mavenFormat } from './maven/format.ts';
import type { MavenService } from './maven/service.ts';
import { npmFormat } from './npm/format.ts';
import { npmDeployIndexer } from './npm/indexer.ts';
import { npmRoutes } from './npm/routes.ts';
import { createNpmStore } from './npm/store.ts';
import { pypiFormat } from './pypi/format.ts';
import { pypiDeployIndexer } from './pypi/indexer.ts';
import { pypiRoutes } from './pypi/routes.ts';
import { FORMATS } from './registry.ts';

/**
 * Every format of the registry at work: how it indexes what is stored, and its clients'
 * routes. Maven has no routes of its own: its clients use the repository path, where the
 * artifact routes ask its service for metadata and snapshot names (docs/maven.md).
 */
export function createFormatRuntimes(deps: { db: Database; maven: MavenService }): FormatRuntime[] {
  const runtimes: FormatRuntime[] = [
    {
      format: npmFormat,
      prepareIndex: npmDeployIndexer(createNpmStore(deps.db)),
      routes: npmRoutes,
    },
    { format: pypiFormat, prepareIndex: pypiDeployIndexer, routes: pypiRoutes },
    { format: mavenFormat, prepareIndex: deps.maven.prepareIndex },
    // Docker's clients also use `/v2/`, outside `/artifactory/api/docker`: app.ts registers
    // the same protocol there (docker/registry-routes.ts). Its files are indexed by the
    // manifests that write them, not by a deploy's indexer.
    {
      format: dockerFormat,
      prepareIndex: async () => undefined,
      routes: dockerApiRoutes,
    },
  ];
  // The registry and the runtimes name the same formats, in the same order.
  const missing = FORMATS.filter((format) => !runtimes.some((r) => r.format === format));
  if (missing.length > 0 || runtimes.length !== FORMATS.length)
    throw new Error(`formats without a runtime: ${missing.map((f) => f.name).join(', ')}`);
  return runtimes;
}

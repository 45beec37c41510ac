import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { schemasReload } from './vite.schemas-reload.ts';

/**
 * Server test files that `npm run test:pg` (DEPOT_TEST_DATABASE_URL set) leaves to `npm test`.
 * PGlite is PostgreSQL itself, so SQL behaves the same on both; the PostgreSQL run pays for
 * what differs (connections, concurrent transactions, a server that goes away). These files
 * would run the same thing twice: they start Depot as a child process on its embedded
 * database whatever the variable says, or drive a package client through a protocol whose
 * SQL other files already run on PostgreSQL, or test what lives in memory.
 */
const EMBEDDED_RUN_ONLY = [
  // Child processes on the embedded database, whatever DEPOT_TEST_DATABASE_URL says.
  'tests/crash-gc.test.ts',
  'tests/crash-retention.test.ts',
  'tests/crash-upload.test.ts',
  'tests/crash-webhook.test.ts',
  'tests/process.test.ts',
  'tests/shutdown-under-load.test.ts',
  'server/db/embedded-database.test.ts',
  'server/db/pglite-dialect.test.ts',
  // The real mvn client (90 s); tests/maven.test.ts runs the same routes on PostgreSQL.
  'tests/maven-cli.test.ts',
  // The real podman, skopeo and buildah; tests/docker-registry.test.ts runs the same
  // registry routes and queries on PostgreSQL.
  'tests/docker-clients.test.ts',
  // The address throttle counts in memory, per process; account locks, which the database
  // keeps, have tests/lockout.test.ts on PostgreSQL.
  'tests/sign-in-throttle.test.ts',
  // The OpenAPI document is built from the routes' options and runs no SQL of its own.
  'tests/openapi.test.ts',
  // Checks of the schema files and of the scaffolding script; the engine's generic resource
  // they end on has its PostgreSQL runs in tests/license-buckets.test.ts and others.
  'tests/schemas-check.test.ts',
  'tests/screen-scaffold.test.ts',
  // Connections through a forward proxy: network code with no SQL of its own; the proxies'
  // documents are the engine's (tests/entity-contracts.test.ts), the outbox webhooks' (tests/webhooks.test.ts).
  'tests/proxies.test.ts',
];

/**
 * Unit tests of pure code, which `npm run test:pg` leaves to `npm test` too: they open no
 * database, so a second run on PostgreSQL would run the very same thing again. The unit
 * tests beside the sources (server/**) are all of this kind but server/db's database tests;
 * under tests/, these are the ones that reach no database.
 */
const PURE_UNIT_TESTS = [
  'server/!(db)/**/*.test.ts',
  'server/*.test.ts',
  'server/db/data-dir-lock.test.ts',
  'tests/bench-depot.test.ts',
  'tests/catalogue.test.ts',
  'tests/console-ui-schema.test.ts',
  'tests/log-rotation.test.ts',
  'tests/migrations-order.test.ts',
  'tests/repository-key-rules.test.ts',
  'tests/vite-schemas-reload.test.ts',
];

/**
 * Server test files that run alone, after the others, one at a time: what they check depends
 * on how fast something happens, or they start Depot as a child process more than once within
 * a test's time limit, and a neighbour's load could change what they see: request and body
 * timeouts of a second or two; a kill that must land while a collection or a retention run
 * is half-way; a shutdown's grace period under load. Each file here leaves the second core
 * idle, so a file belongs here only for such a reason (docs/testing.md, "Files that run
 * alone"). The sign-in throttle's and lockout's tests run with the others: they hold the
 * clock still or move a lock's end in the database, so no pace of the machine changes them.
 */
const RUN_ALONE = [
  'tests/crash-gc.test.ts',
  'tests/crash-retention.test.ts',
  'tests/crash-upload.test.ts',
  'tests/process.test.ts',
  'tests/shutdown-under-load.test.ts',
  'tests/slow-requests.test.ts',
  'server/http/slow-bodies.test.ts',
];

const SERVER_TESTS = {
  environment: 'node' as const,
  include: ['server/**/*.test.ts', 'tests/**/*.test.ts'],
  testTimeout: 30000,
  hookTimeout: 60000,
  // Files that start Depot as a child process start the run's bundle, made once; on
  // PostgreSQL each file's database is a copy of one migrated once.
  globalSetup: ['tests/helpers/server-bundle.ts', 'tests/helpers/postgres-template.ts'],
};
const excludedOnPostgres = process.env.DEPOT_TEST_DATABASE_URL
  ? [...EMBEDDED_RUN_ONLY, ...PURE_UNIT_TESTS]
  : [];

// One config for the console build (served by the server under /ui/) and for vitest.
// Two vitest projects: the server runs in Node, the console in jsdom.
export default defineConfig({
  base: '/ui/',
  plugins: [react(), schemasReload()],
  build: {
    outDir: 'dist/ui',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // npm run size reads it to know which chunks each route loads.
    manifest: true,
  },
  server: {
    proxy: {
      '/ui/api': 'http://localhost:8082',
      '/artifactory': 'http://localhost:8082',
    },
  },
  test: {
    // Two files at a time on two cores: a file that waits on a child process, a client or
    // the network leaves the other core to the next file. The files of RUN_ALONE follow,
    // one at a time (vitest runs a project with maxWorkers 1 in a group of its own, last).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          ...SERVER_TESTS,
          // Files share their worker's module graph instead of each loading the whole server
          // again (import time fell from about 300 to 72 s of the run): each file builds its
          // own Depot, home and database, and the server keeps no state in modules between
          // them. RUN_ALONE's files stay isolated: they start and kill processes.
          isolate: false,
          exclude: [...configDefaults.exclude, ...excludedOnPostgres, ...RUN_ALONE],
        },
      },
      {
        extends: true,
        test: {
          name: 'server-alone',
          ...SERVER_TESTS,
          include: RUN_ALONE,
          exclude: [...configDefaults.exclude, ...excludedOnPostgres],
          maxWorkers: 1,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'jsdom',
          // One module graph per worker, as the server's: React, rjsf and AG Grid load once
          // per worker rather than once per file (the project ran 4x faster). The shared
          // setup unmounts after each test; the files pass in a shuffled order too.
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test-setup.ts'],
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: each file starts its own real server (server.ts) and drives
// Debian's chromium with playwright-core. Two files at a time, as two cores allow: each has
// its own server, home and browser, so neither sees the other.
export default defineConfig({
  test: {
    name: 'e2e',
    root: '.',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    // axe-core audits every console page a test visits (e2e/accessibility.ts)
    setupFiles: ['e2e/setup.ts'],
    maxWorkers: 2,
    testTimeout: 60000,
    hookTimeout: 90000,
    // Each file's Depot starts from the run's bundle, made once (tests/helpers/server-bundle.ts).
    globalSetup: ['tests/helpers/server-bundle.ts'],
  },
});

import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: one real server (global-setup.ts) and Debian's chromium driven by
// playwright-core. Files run one after another: they share the server.
export default defineConfig({
  test: {
    name: 'e2e',
    root: '.',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60000,
    hookTimeout: 90000,
  },
});

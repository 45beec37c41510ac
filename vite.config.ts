import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { schemasReload } from './vite.schemas-reload.ts';

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
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test-setup.ts'],
        },
      },
    ],
  },
});

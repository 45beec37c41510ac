import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// vitest runs without globals, so testing-library cannot register its own cleanup.
afterEach(() => cleanup());

// jsdom has no matchMedia; the theme follows prefers-color-scheme through it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no CSS.escape; React Aria builds selectors with it. Escaping every character
// outside [A-Za-z0-9_-] is what it needs for the names and ids it builds selectors from.
if (!globalThis.CSS?.escape) {
  const escape = (value: string) => String(value).replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
  globalThis.CSS = { ...(globalThis.CSS ?? {}), escape } as typeof CSS;
}

// Unit tests have no Depot behind them: a call no test mocked fails at once, instead of going
// to whatever answers (or hangs) on jsdom's origin. With `isolate: false` one file's modules
// stay loaded for the next, so their samples can start calls the next file never mocked.
globalThis.fetch = (input: RequestInfo | URL) =>
  Promise.reject(
    new TypeError(
      `No server in unit tests: mock this call (${String(input instanceof Request ? input.url : input)})`,
    ),
  );

import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { resolve } from 'node:path';

describe('the edge settings', () => {
  it('default to a 30 s headers timeout and 1 KiB/s over 30 s for bodies, and no public URL', () => {
    const config = loadConfig({});
    expect(config.requestLimits).toEqual({
      headersTimeoutSeconds: 30,
      body: { minBytesPerSecond: 1024, windowSeconds: 30 },
    });
    expect(config.publicOrigin).toBeUndefined();
  });

  it('take DEPOT_PUBLIC_URL as its origin, and refuse anything but an http or https URL', () => {
    expect(loadConfig({ DEPOT_PUBLIC_URL: 'https://Repo.Example:443/depot/' }).publicOrigin).toBe(
      'https://repo.example',
    );
    for (const bad of ['repo.example', 'ftp://repo.example/', 'javascript:alert(1)'])
      expect(() => loadConfig({ DEPOT_PUBLIC_URL: bad })).toThrow(/DEPOT_PUBLIC_URL/);
  });

  it('refuse limits that would turn the timeouts off', () => {
    for (const name of [
      'DEPOT_REQUEST_HEADERS_TIMEOUT_SECONDS',
      'DEPOT_REQUEST_BODY_MIN_BYTES_PER_SECOND',
      'DEPOT_REQUEST_BODY_RATE_WINDOW_SECONDS',
    ])
      expect(() => loadConfig({ [name]: '0' })).toThrow(name);
  });
});

describe('reloading schemas', () => {
  it('is off unless DEPOT_SCHEMAS_RELOAD is true (development)', () => {
    expect(loadConfig({}).schemasReload).toBe(false);
    expect(loadConfig({ DEPOT_SCHEMAS_RELOAD: 'yes' }).schemasReload).toBe(false);
    expect(loadConfig({ DEPOT_SCHEMAS_RELOAD: 'true' }).schemasReload).toBe(true);
  });
});

describe('the home', () => {
  it('is ./var when DEPOT_HOME is unset or empty, never the working directory itself', () => {
    const expected = resolve('./var');
    expect(loadConfig({}).home).toBe(expected);
    expect(loadConfig({ DEPOT_HOME: '' }).home).toBe(expected);
  });
});

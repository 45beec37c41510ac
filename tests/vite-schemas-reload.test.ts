import { EventEmitter } from 'node:events';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schemasReload } from '../vite.schemas-reload.ts';

afterEach(() => vi.useRealTimers());

/** The dev server's watcher and socket, as the plugin uses them. */
function fakeDevServer() {
  const watcher = Object.assign(new EventEmitter(), { add: vi.fn() });
  const ws = { send: vi.fn() };
  return { watcher, ws };
}

describe('the dev server reloads schemas in the open console', () => {
  it('tells the console once the edits under schemas/ settle, and ignores other files', () => {
    vi.useFakeTimers();
    const dir = resolve('schemas');
    const server = fakeDevServer();
    const plugin = schemasReload(dir);
    (plugin.configureServer as (s: unknown) => void)(server);
    expect(server.watcher.add).toHaveBeenCalledWith(dir);

    server.watcher.emit('change', resolve('src/main.tsx'));
    server.watcher.emit('change', join(dir, 'screens', 'groups.screen.json'));
    server.watcher.emit('add', join(dir, 'entities', 'team.schema.json'));
    vi.advanceTimersByTime(1000);
    expect(server.ws.send).toHaveBeenCalledTimes(1);
    expect(server.ws.send).toHaveBeenCalledWith({ type: 'custom', event: 'depot:schemas-changed' });
  });
});

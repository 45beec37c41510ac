import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLogDestination } from '../server/logs/log-destination.ts';
import { listLogFiles } from '../server/modules/system-logs/log-reader.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const closed = (file: ReturnType<typeof openLogDestination>) =>
  new Promise<void>((resolve) => {
    file.once('close', () => resolve());
    file.end();
  });

describe('a log rotated by size', () => {
  it('moves the full file aside, keeps the configured number and loses no line it keeps', async () => {
    dir = mkdtempSync(join(tmpdir(), 'depot-log-rotation-'));
    const file = openLogDestination(dir, 'depot-request.log', {
      maxFileBytes: 1000,
      maxRotatedFiles: 2,
    });
    // 100 bytes a line: each file holds 10 lines, and 50 lines make five files.
    const line = (i: number) => `${String(i).padStart(4, '0')} ${'x'.repeat(94)}\n`;
    for (let i = 0; i < 50; i++) {
      file.write(line(i));
      // One write at a time, as a busy server's lines arrive between its writes.
      await new Promise((resolve) => file.once('write', resolve));
    }
    await closed(file);

    expect(readdirSync(dir).sort()).toEqual([
      'depot-request.log',
      'depot-request.log.1',
      'depot-request.log.2',
    ]);
    const kept = ['depot-request.log.2', 'depot-request.log.1', 'depot-request.log']
      .map((name) => readFileSync(join(dir!, name), 'utf8'))
      .join('');
    // The newest lines, in order, each whole; the oldest files are gone.
    const lines = kept.split('\n').filter(Boolean);
    expect(lines.map((l) => Number(l.slice(0, 4)))).toEqual(
      Array.from({ length: lines.length }, (_, i) => 50 - lines.length + i),
    );
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.every((l) => l.length === 99)).toBe(true);
    expect(listLogFiles(dir)).toEqual([
      'depot-service.log',
      'depot-request.log',
      'depot-audit.log',
      'depot-request.log.1',
      'depot-request.log.2',
    ]);
  });
});

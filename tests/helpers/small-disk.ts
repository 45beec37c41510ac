import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs that a test fills up and empties again. */
export interface SmallDisk {
  path: string;
  /** Bytes still free. */
  free(): number;
  /** Takes all the free space but `leaveBytes` with a file of junk. */
  fill(leaveBytes?: number): void;
  /** Removes the junk `fill` wrote. */
  empty(): void;
  /** Unmounts (lazily, so it is never busy) and removes the mount point; idempotent. */
  release(): void;
}

const MiB = 1024 * 1024;

/**
 * Mounts a tmpfs of `sizeBytes`. Mounting needs root, which CI has; without it this throws
 * and says so. The disk also goes at process exit, in case a hook is cut short.
 */
export function mountSmallDisk(prefix: string, sizeBytes: number): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', path], {
      stdio: 'pipe',
    });
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    throw new Error(
      `A full-disk test needs root to mount a small tmpfs (mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}). Run it as root, as CI does.`,
    );
  }
  let mounted = true;
  let junkFiles = 0;
  const free = () => {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  };
  const release = () => {
    if (!mounted) return;
    mounted = false;
    execFileSync('umount', ['-l', path]);
    rmSync(path, { recursive: true, force: true });
  };
  process.once('exit', release);
  return {
    path,
    free,
    fill(leaveBytes = 0) {
      const junk = openSync(join(path, `junk-${junkFiles++}`), 'w');
      const chunk = Buffer.alloc(MiB, 0x6a);
      try {
        for (let left = free() - leaveBytes; left > 0; left -= chunk.length)
          writeSync(junk, chunk, 0, Math.min(left, chunk.length));
      } finally {
        closeSync(junk);
      }
    },
    empty() {
      for (; junkFiles > 0; junkFiles--) rmSync(join(path, `junk-${junkFiles - 1}`));
    },
    release,
  };
}

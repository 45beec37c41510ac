import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Who holds an embedded database: written whole into `<home>/db/depot.pid`. */
interface Owner {
  pid: number;
  host: string;
  since: string;
}

/** Lock files this process holds now. */
const heldHere = new Set<string>();

/** Another Depot process has the embedded database open: starting a second one would corrupt it. */
export class EmbeddedDatabaseInUse extends Error {}

function readOwner(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? (owner as Owner)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process named in the file still runs. On another host nobody here can tell, so
 * it counts as running. Our own pid in a file we do not hold is a leftover: a container's
 * Depot is often pid 1 after every restart.
 */
function stillRuns(owner: Owner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUse(dir: string, file: string, owner: Owner | undefined) {
  const who = owner ? `process ${owner.pid} on ${owner.host}, since ${owner.since}` : 'a process';
  return new EmbeddedDatabaseInUse(
    `The embedded database in ${dir} is in use by another Depot (${who}). The embedded ` +
      'database serves one node only: stop that Depot first, or run several nodes on ' +
      `PostgreSQL (DEPOT_DATABASE_URL; docs/cluster.md). If no Depot uses it, remove ${file}.`,
  );
}

/** Puts our name in place in one step: a reader never sees a half-written file. */
function tryCreate(file: string, owner: Owner): boolean {
  const draft = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, JSON.stringify(owner));
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Takes the embedded database's data directory for this process, as PostgreSQL's
 * postmaster.pid does, and answers the function that gives it back. PGlite has no lock of its
 * own: a second process on the same directory starts, and both then write over each other.
 * A lock left by a process that died (kill -9, a power cut) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'depot.pid');
  if (heldHere.has(file)) throw inUse(dir, file, readOwner(file));
  const mine: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file, mine)) {
      heldHere.add(file);
      return () => release(file, mine);
    }
    const owner = readOwner(file);
    // An unreadable file cannot be a half-written one (tryCreate links it whole).
    if (owner && stillRuns(owner)) throw inUse(dir, file, owner);
    rmSync(file, { force: true });
  }
  throw inUse(dir, file, readOwner(file));
}

function release(file: string, mine: Owner) {
  if (!heldHere.delete(file)) return;
  const owner = readOwner(file);
  if (owner?.pid === mine.pid && owner.since === mine.since) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone (the home was removed): nothing to give back.
    }
  }
}

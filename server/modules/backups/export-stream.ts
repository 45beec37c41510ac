import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { DepotError } from '../../errors.ts';
import { humanBytes } from '../maintenance/human-bytes.ts';
import type { BackupManifest } from './backup-manifest.ts';
import type { BackupProgress } from './backup-writer.ts';

/** How often a running export says where it is, so that the connection never goes quiet. */
export const EXPORT_PROGRESS_MS = 5000;

export const EXPORT_DONE = 'Export finished successfully: ';
export const EXPORT_FAILED = 'Export failed: ';

const PHASES: Record<BackupProgress['phase'], string> = {
  metadata: 'Reading the metadata from one database snapshot',
  space: 'Checking the free space for the binaries',
  binaries: 'Writing the binaries',
  finishing: 'Finishing',
};

function progressLine(progress: BackupProgress) {
  if (progress.phase !== 'binaries' && progress.phase !== 'finishing')
    return `${PHASES[progress.phase]}\n`;
  return (
    `${PHASES[progress.phase]}: ${progress.blobsDone} of ${progress.blobsTotal} binaries ` +
    `(${humanBytes(progress.bytesDone)} of ${humanBytes(progress.bytesTotal)})\n`
  );
}

/**
 * The system export's answer (docs/backup.md, "System export"): Artifactory's export
 * produces text/plain, and at a million items the work outlasts any client's wait for
 * headers, so the headers and a first line go out at once; then a line at each phase and
 * every few seconds while binaries are written; the last line says how it ended:
 * `Export finished successfully: <path>` or `Export failed: <reason>`. A client that goes
 * away does not stop the export (as in Artifactory): the backup is written all the same.
 */
export function streamedExport(
  shownPath: string,
  run: (onProgress: (progress: BackupProgress) => void) => Promise<{
    manifest: BackupManifest;
    path: string;
  }>,
  log: FastifyBaseLogger,
  intervalMs = EXPORT_PROGRESS_MS,
): PassThrough {
  const out = new PassThrough();
  out.on('error', () => undefined); // a client gone: the export goes on
  const write = (line: string) => {
    if (!out.destroyed && out.writable) out.write(line);
  };
  const started = Date.now();
  write(`Exporting the system to '${shownPath}'\n`);
  let latest: BackupProgress | undefined;
  const heartbeat = setInterval(() => latest && write(progressLine(latest)), intervalMs);
  const onProgress = (progress: BackupProgress) => {
    if (progress.phase !== latest?.phase) write(progressLine(progress));
    latest = progress;
  };
  run(onProgress)
    .then(({ manifest, path }) => {
      const { blobs } = manifest;
      if (manifest.metadata === 'delta')
        write(
          `Metadata: ${manifest.rowsWritten} rows new or changed since ${manifest.basedOn}, ` +
            `which this backup builds on\n`,
        );
      write(
        `Exported ${manifest.counts.nodes ?? 0} items and ${blobs.count} binaries ` +
          `(${blobs.copied} written, ${humanBytes(blobs.copiedBytes)}) in ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
      write(`${EXPORT_DONE}${path}\n`);
    })
    .catch((error: Error) => {
      // A refusal says why; anything else is logged, not shown (it may name server internals).
      if (!(error instanceof DepotError)) log.error({ err: error }, 'system export failed');
      write(
        `${EXPORT_FAILED}${error instanceof DepotError ? error.message : 'an unexpected error ended it (the server log says which)'}\n`,
      );
    })
    .finally(() => {
      clearInterval(heartbeat);
      out.end();
    });
  return out;
}

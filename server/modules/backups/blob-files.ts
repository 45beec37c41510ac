import { join } from 'node:path';

/** Where a blob lives in a version-1 backup (or a zip backup): `blobs/ab/<sha256>`. */
export const backupBlobPath = (blobsDir: string, sha256: string) =>
  join(blobsDir, sha256.slice(0, 2), sha256);

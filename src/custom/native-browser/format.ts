/** The native browser's words; the spec quotes none for this page. */
export const NATIVE_LABELS = {
  title: (where: string) => `Index of ${where}`,
  tableLabel: (where: string) => `Contents of ${where}`,
  noRepository: 'No repository was named in the address.',
  name: 'Name',
  modified: 'Last Modified',
  size: 'Size',
  parent: '../',
  empty: 'This folder is empty.',
  more: 'Show more',
};

const encodePath = (segments: string[]) =>
  segments.filter(Boolean).map(encodeURIComponent).join('/');

/** The console's native browser address of a folder. */
export const nativeHref = (repoKey: string, path: string) =>
  `/native/${encodePath([repoKey, ...path.split('/')])}`;

/** A file's download address from its `downloadPath` (`repoKey/path`, below /artifactory/). */
export const downloadHref = (downloadPath: string) =>
  `/artifactory/${encodePath(downloadPath.split('/'))}`;

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes as a person reads them: 1,024 bytes make a KB. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

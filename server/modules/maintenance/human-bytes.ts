const KIB = 1024;
const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** "0 bytes", "512 bytes", "1.5 KB", "3.2 GB": sizes in the jobs' sentences. */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= KIB && unit < UNITS.length - 1) {
    value /= KIB;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

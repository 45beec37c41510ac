const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
const twoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Bytes for people: "0 bytes", "512 bytes", "2.93 KB", "1.5 GB" (powers of 1024). */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${twoDecimals.format(value)} ${UNITS[unit]}`;
}

/** "12,345" */
export const formatCount = (count: number) => count.toLocaleString('en-US');

/** "28.57%" */
export const formatPercent = (percent: number) => `${twoDecimals.format(percent)}%`;

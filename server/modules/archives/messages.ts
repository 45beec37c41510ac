/**
 * What folder downloads and archive deploys answer. The overload message is spec 02 §4's,
 * verbatim (the console shows it as it is); the others are Depot's own wording.
 */
export const ARCHIVE_MESSAGES = {
  tooManyDownloads:
    'There are too many folder download requests currently running, try again later.',
  unsupportedDownloadType: (type: string) =>
    `Unsupported archive type '${type}': use zip, tar, tar.gz or tgz`,
  folderNotFound: (where: string) => `Path '${where}' does not exist, aborting folder download`,
  notAFolder: (where: string) => `Path '${where}' is not a folder, aborting folder download`,
  tooManyFiles: (where: string, files: number, max: number) =>
    `Folder '${where}' has ${files} files, more than the ${max} a folder download may hold`,
  tooLarge: (where: string, sizeMb: number, max: number) =>
    `Folder '${where}' holds ${sizeMb.toFixed(2)} MB, more than the ${max} MB a folder download may hold`,

  unsupportedDeployType: (name: string) =>
    `Cannot explode '${name}': only .zip, .tar, .tar.gz and .tgz archives can be exploded`,
  badEntryName: (name: string, reason: string) =>
    `Archive entry '${name}' was refused: ${reason}. Nothing was deployed`,
  unsupportedEntryType: (name: string, type: string) =>
    `Archive entry '${name}' is a ${type}: only files and folders can be deployed. Nothing was deployed`,
  entryClash: (name: string) =>
    `Archive entry '${name}' is both a file and a folder in the archive. Nothing was deployed`,
  tooManyEntries: (max: number) =>
    `The archive has more than ${max} entries, the most an exploded archive may have. Nothing was deployed`,
  tooManyAtomicEntries: (max: number) =>
    `The archive has more than ${max} entries, the most an atomic deploy (X-Explode-Archive-Atomic) records in its one transaction: deploy it without that header, or split it. Nothing was deployed`,
  tooManyBytes: (maxMb: number) =>
    `The archive unpacks to more than ${maxMb} MB, the most an exploded archive may hold. Nothing was deployed`,
  ratioTooHigh: (name: string, max: number) =>
    `Archive entry '${name}' expands more than ${max} times its compressed size, as archive bombs do. Nothing was deployed`,
  corrupt: (detail: string) => `The archive could not be read: ${detail}. Nothing was deployed`,
  entryChecksum: (name: string) =>
    `Archive entry '${name}' does not match the CRC-32 and size the archive records: the archive is corrupt. Nothing was deployed`,
} as const;

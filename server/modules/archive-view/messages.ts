import type { GuardMessages } from '../archives/bomb-guard.ts';

/** What View Source answers; the spec quotes the not-found message only (spec 02 §7). */
export const VIEW_SOURCE_MESSAGES = {
  entryNotFound: (sourcePath: string, archivePath: string) =>
    `${sourcePath} could not be found in ${archivePath}.`,
  notAnArchive: (path: string) =>
    `${path} is not an archive whose entries can be shown: .zip, .jar, .war, .ear, .aar, .tar, .tgz and .tar.gz can`,
  folderEntry: (sourcePath: string, archivePath: string) =>
    `${sourcePath} is a folder in ${archivePath}: only files have a source`,
  corrupt: (detail: string) => `The archive could not be read: ${detail}`,
} as const;

/** The bomb guard's refusals, worded for reading an archive rather than deploying it. */
export const VIEW_GUARD_MESSAGES: GuardMessages = {
  tooManyEntries: (max) => `The archive has more than ${max} entries, more than can be shown`,
  tooManyBytes: (maxMb) =>
    `The archive unpacks to more than ${maxMb} MB, more than is read to show its entries`,
  ratioTooHigh: (name, max) =>
    `Archive entry '${name}' expands more than ${max} times its compressed size, as archive bombs do: it is not read`,
  entryChecksum: (name) =>
    `Archive entry '${name}' does not match the CRC-32 and size the archive records: the archive is corrupt`,
};

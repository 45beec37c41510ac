import { FILE_VIEW_MAX_BYTES } from './limits.ts';

/** What the package views answer when they cannot; the spec quotes none, so these are Depot's. */
export const FILE_VIEW_MESSAGES = {
  notApplicable: (view: string, where: string) => `${where} has no ${view} view`,
  noPom: (where: string, pom: string) => `${where} has no POM: ${pom} could not be found.`,
  noPackageJson: (where: string, entry: string) => `${entry} could not be found in ${where}.`,
  tooLarge: (where: string) =>
    `${where} is larger than ${FILE_VIEW_MAX_BYTES / 1024 / 1024} MiB, the most a view shows`,
  notText: (where: string) => `${where} is not a text file: download it to open it`,
  folderNotViewed: (where: string) => `${where} is a folder: only files have a code view`,
} as const;

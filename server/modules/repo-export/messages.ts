/** What the repository export and import answer (docs/repository-export.md). */
export const REPO_EXPORT_MESSAGES = {
  notFound: (key: string) => `Repository '${key}' could not be found.`,
  notLocal: (key: string) =>
    `Repository '${key}' is not a local repository: only local repositories are exported and imported`,
  nothingToImport: (path: string) => `'${path}' holds nothing to import`,
  notADirectory: (path: string) => `'${path}' is not a directory`,
  unknownRepositories: (keys: string[]) =>
    `No local repository matches ${keys.map((key) => `'${key}'`).join(', ')}: ` +
    'importing all repositories needs one folder per existing local repository, named by its key',
  unreadableMetadata: (file: string, reason: string) =>
    `The metadata file '${file}' cannot be read (${reason}): nothing was imported`,
  mismatches: (items: string[], more: number) =>
    `Nothing was imported: ${items.length + more} files do not match the checksums recorded for them: ` +
    items.join(', ') +
    (more > 0 ? ` and ${more} more` : ''),
  exported: (files: number, repositories: number) =>
    `Exported ${files} files of ${repositories} repositories`,
  imported: (files: number, repositories: number) =>
    `Imported ${files} files into ${repositories} repositories`,
} as const;

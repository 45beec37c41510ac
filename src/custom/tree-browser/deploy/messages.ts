/** The deploy dialog's and the multi-deploy panel's texts (Depot's wording). */
export const DEPLOY_LABELS = {
  deploy: 'Deploy',
  title: 'Deploy',
  targetRepository: 'Target Repository',
  targetFolder: 'Target Folder',
  files: 'Files',
  properties: 'Properties (key=value, one per line)',
  explode: 'Deploy as bundle (extract the zip into the target folder)',
  cancel: 'Cancel',
  noLocal: 'There is no local repository to deploy to.',
  badProperty: (line: string) => `'${line}' is not key=value`,
  panel: 'Deploying',
  overall: (percent: number) => `${percent}% overall`,
  cancelFile: (name: string) => `Cancel ${name}`,
  cancelAll: 'Cancel All',
  cancelAllQuestion: 'Cancel all the uploads still running?',
  keepGoing: 'Keep Uploading',
  status: {
    queued: 'Waiting',
    hashing: 'Checksums…',
    uploading: 'Uploading',
    success: 'Done',
    fail: 'Failed',
  },
  /** An upload the server refused without saying why: plain words, not its HTTP status text. */
  uploadFailed: (status: number) => `The upload failed (the server answered ${status})`,
  deployed: (count: number) => (count === 1 ? 'Deployed 1 file' : `Deployed ${count} files`),
};

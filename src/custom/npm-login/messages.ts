/** The npm web login page's texts (docs/npm.md; the spec does not show this page). */
export const NPM_LOGIN_PATH = '/npm-login';

export const NPM_LOGIN_LABELS = {
  title: 'Sign In to npm',
  asking: (repoKey: string, user: string) =>
    `npm on a command line asks to sign in to the npm repository ${repoKey} as ${user}. It will get a token with your permissions.`,
  warning: 'Approve only if you ran npm login yourself just now.',
  approve: 'Approve',
  deny: 'Deny',
  loading: 'Loading…',
  approved: 'npm is signed in. You can close this page and go back to the command line.',
  denied: 'The npm login was denied. npm stops without a token.',
  alreadySettled: (state: string) => `This npm login was already ${state}.`,
} as const;

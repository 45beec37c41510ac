/** Mail and password-reset messages, shared by the server, the console and the tests. */
export const MAIL_MESSAGES = {
  passwordForNewHost:
    'Enter the password again: the stored one goes only to the mail server host and port it was saved for',
  notConfigured: 'Mail is not configured. Ask an administrator to set up the mail server.',
  noBaseUrl: 'The Depot URL for mails is not set in the mail configuration',
  testSent: (to: string) => `A test message was sent to ${to}`,
  sendFailed: (reason: string) => `The mail could not be sent: ${reason}`,
  resetSent:
    'If the user exists and has an email address, a link to reset the password was sent to it.',
  invalidKey: 'The link is not valid or has expired',
  passwordReset: 'The password was reset',
  invited: (email: string) => `An invitation was sent to ${email}`,
  noEmail: (user: string) => `User '${user}' has no email address`,
  alreadyAccepted: (user: string) => `User '${user}' has already chosen a password`,
} as const;

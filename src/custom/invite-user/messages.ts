/** Administration > User Management > Invite User (docs/mail.md). */
export const INVITE_USER_PATH = '/admin/management/invite_user';

export const INVITE_LABELS = {
  title: 'Invite User',
  menuGroup: 'User Management',
  hint: 'The user gets a mail with a link to choose a password. The link works once, for 7 days.',
  name: 'User Name',
  email: 'Email Address',
  invite: 'Send Invitation',
} as const;

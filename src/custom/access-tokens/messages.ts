/** Administration > Configuration > Access Tokens (spec 01 §2: admin configuration/access_tokens). */
export const ACCESS_TOKENS_PATH = '/admin/configuration/access_tokens';

export const TOKEN_LABELS = {
  title: 'Access Tokens',
  menuGroup: 'Configuration',
  generate: 'Generate Token',
  userName: 'User Name',
  scope: 'Scope',
  scopeUser: 'User (the user’s own permissions)',
  scopeAdmin: 'Admin',
  scopeGroups: 'Groups',
  groups: 'Groups (comma-separated)',
  expiry: 'Expires In',
  description: 'Description',
  issued: 'Copy the token now: it is not shown again.',
  copy: 'Copy',
  subject: 'Subject',
  issuedAt: 'Issued',
  expiresAt: 'Expires',
  never: 'Never',
  revoke: 'Revoke',
  revokeRow: (id: string) => `Revoke token ${id}`,
  revokeTitle: 'Revoke Token',
  revokeText: (subject: string) =>
    `Revoke this token of ${subject}? Clients using it are refused from now on.`,
  cancel: 'Cancel',
  revoked: 'Token revoked',
  empty: 'No active tokens',
  tokenId: 'Token ID',
} as const;

/** Lifetimes offered; 0 (never) is for admins, and the server checks that too. */
export const EXPIRY_CHOICES: Array<{ label: string; seconds: number }> = [
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '30 days', seconds: 30 * 86_400 },
  { label: '1 year', seconds: 365 * 86_400 },
  { label: 'Never', seconds: 0 },
];

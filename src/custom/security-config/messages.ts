/** Administration > Security > General (spec 01 §2: admin artifactory/security/general). */
export const SECURITY_CONFIG_PATH = '/admin/artifactory/security/general';

export const SECURITY_LABELS = {
  title: 'Security Configuration',
  menuGroup: 'Security',
  menuLabel: 'General',
  save: 'Save',
  reset: 'Reset',
  saved: 'Security configuration saved',
  loading: 'Loading…',
} as const;

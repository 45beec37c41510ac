/** Administration > Configuration > Mail (spec 01 §2: admin configuration/mail). */
export const MAIL_CONFIG_PATH = '/admin/configuration/mail';

export const MAIL_LABELS = {
  title: 'Mail',
  menuGroup: 'Configuration',
  saved: 'Mail settings saved',
  testTitle: 'Send a Test Mail',
  testHint: 'Sends with the settings on the form, saved or not.',
  testTo: 'Send To',
  sendTest: 'Send Test Mail',
} as const;

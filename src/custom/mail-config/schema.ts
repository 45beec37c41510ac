import type { RJSFSchema, UiSchema } from '@rjsf/utils';

/** The SMTP settings form; the server's shape is server/modules/mail/settings.ts. */
export const mailSchema: RJSFSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', title: 'Enabled' },
    host: { type: 'string', title: 'Host', maxLength: 255 },
    port: { type: 'integer', title: 'Port', minimum: 1, maximum: 65535, default: 25 },
    username: { type: 'string', title: 'Username', maxLength: 255 },
    password: {
      type: 'string',
      title: 'Password',
      maxLength: 1024,
      description: 'Leave empty to keep the stored password.',
    },
    from: { type: 'string', title: 'From', maxLength: 255 },
    subjectPrefix: { type: 'string', title: 'Email Subject Prefix', maxLength: 100 },
    baseUrl: {
      type: 'string',
      title: 'Depot URL to Be Used in Mails',
      description: 'The address users open the console at; links in mails start with it.',
      maxLength: 1024,
      pattern: '^(https?://.+)?$',
    },
    ssl: { type: 'boolean', title: 'Use SSL/TLS (implicit TLS, usually port 465)' },
    tls: { type: 'boolean', title: 'Use STARTTLS' },
  },
};

export const mailUiSchema: UiSchema = {
  password: { 'ui:widget': 'password' },
};

/** The SMTP settings (Administration > Configuration > Mail; docs/mail.md). */
export interface MailSettings {
  enabled: boolean;
  host: string;
  port: number;
  username: string;
  /** Sealed with the master key when stored; never answered. */
  password?: string;
  from: string;
  subjectPrefix: string;
  /** Implicit TLS from the first byte (port 465). */
  ssl: boolean;
  /** STARTTLS: upgrade a plain connection, and refuse to go on without it. */
  tls: boolean;
  /** The console's address as mail recipients reach it, for the links in mails. */
  baseUrl: string;
}

export const DEFAULT_MAIL_SETTINGS: MailSettings = {
  enabled: false,
  host: '',
  port: 25,
  username: '',
  from: '',
  subjectPrefix: '[Depot]',
  ssl: false,
  tls: false,
  baseUrl: '',
};

/** What the console sees: the password only as whether one is stored. */
export type MailSettingsView = Omit<MailSettings, 'password'> & { passwordSet: boolean };

export const mailSettingsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    host: { type: 'string', maxLength: 255, pattern: '^[A-Za-z0-9.:\\[\\]-]*$' },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    username: { type: 'string', maxLength: 255 },
    /** Absent keeps the stored password; empty clears it. */
    password: { type: 'string', maxLength: 1024 },
    from: { type: 'string', maxLength: 255 },
    subjectPrefix: { type: 'string', maxLength: 100 },
    ssl: { type: 'boolean' },
    tls: { type: 'boolean' },
    baseUrl: { type: 'string', maxLength: 1024, pattern: '^(https?://.+)?$' },
    passwordSet: { type: 'boolean' },
  },
} as const;

/**
 * The SMTP settings (Administration > Configuration > Mail; docs/mail.md), as
 * schemas/entities/mail-settings.schema.json describes them, with the password opened.
 */
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

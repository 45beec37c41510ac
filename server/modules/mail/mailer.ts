import nodemailer from 'nodemailer';
import { BadRequest } from '../../errors.ts';
import type { MailSettings } from './settings.ts';
import { MAIL_MESSAGES as M } from './messages.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A mail server that does not answer within this long is reported, not waited for. */
const TIMEOUT_MS = 10_000;

/** Sends one message with the given settings; a failure says why, never with the password. */
export async function sendWithSettings(settings: MailSettings, message: MailMessage) {
  if (!settings.host) throw new BadRequest(M.notConfigured);
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.ssl,
    requireTLS: settings.tls,
    ignoreTLS: !settings.ssl && !settings.tls,
    auth: settings.username
      ? { user: settings.username, pass: settings.password ?? '' }
      : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: settings.from || `depot@${settings.host}`,
      to: message.to,
      subject: `${settings.subjectPrefix ? `${settings.subjectPrefix} ` : ''}${message.subject}`,
      text: message.text,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequest(M.sendFailed(reason));
  } finally {
    transport.close();
  }
}

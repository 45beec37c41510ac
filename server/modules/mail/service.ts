import { BadRequest } from '../../errors.ts';
import type { EntityDocument } from '../entities/documents.ts';
import type { SingleStore } from '../entities/single-store.ts';
import { otherServer } from './hooks.ts';
import { sendWithSettings, type MailMessage } from './mailer.ts';
import { MAIL_MESSAGES as M } from './messages.ts';
import type { MailSettings } from './settings.ts';

/**
 * Sending with the SMTP settings (docs/mail.md). The settings are a single document of the
 * schema engine (schemas/screens/mail-config.screen.json): the engine serves and saves them,
 * sealing the password; this reads them with the password opened.
 */
export function createMailService(store: SingleStore) {
  const settings = async () => (await store.opened()) as unknown as MailSettings;

  return {
    /** The test button: the settings on the form (saved or not) and one recipient. */
    async sendTest(to: string, draft: EntityDocument): Promise<void> {
      const current = await settings();
      const { password, passwordSet: _ignored, ...rest } = draft;
      if (!password && current.password && otherServer(current as never, rest))
        throw new BadRequest(M.passwordForNewHost, 'password');
      await sendWithSettings(
        { ...current, ...rest, password: password ? String(password) : current.password },
        {
          to,
          subject: 'Test message',
          text: 'This is a test message from Depot. The mail settings work.',
        },
      );
    },

    /** Whether mails can go out at all: sent mails carry links, so the base URL is needed. */
    async ready(): Promise<MailSettings> {
      const current = await settings();
      if (!current.enabled || !current.host) throw new BadRequest(M.notConfigured);
      if (!current.baseUrl) throw new BadRequest(M.noBaseUrl);
      return current;
    },

    async send(message: MailMessage): Promise<void> {
      await sendWithSettings(await this.ready(), message);
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;

import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { BadRequest } from '../../errors.ts';
import { sendWithSettings, type MailMessage } from './mailer.ts';
import { MAIL_MESSAGES as M } from './messages.ts';
import { DEFAULT_MAIL_SETTINGS, type MailSettings, type MailSettingsView } from './settings.ts';

const KEY = 'mail';
type MailChange = Partial<MailSettings> & { passwordSet?: boolean };

/** The SMTP settings and sending with them (docs/mail.md). */
export function createMailService({ db, secrets }: { db: Database; secrets: SecretBox }) {
  async function stored(): Promise<MailSettings> {
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', KEY)
      .executeTakeFirst();
    return { ...DEFAULT_MAIL_SETTINGS, ...(row?.value as Partial<MailSettings> | undefined) };
  }

  /** The settings with the password opened, for sending. */
  async function settings(): Promise<MailSettings> {
    const current = await stored();
    return { ...current, password: current.password && secrets.decrypt(current.password) };
  }

  /** A change applied to the stored settings: no password keeps it, an empty one clears it. */
  function applied(current: MailSettings, change: MailChange): MailSettings {
    const { passwordSet: _ignored, password, ...rest } = change;
    const sealed =
      password === undefined ? current.password : password ? secrets.encrypt(password) : undefined;
    return { ...current, ...rest, password: sealed };
  }

  const view = ({ password, ...rest }: MailSettings): MailSettingsView => ({
    ...rest,
    passwordSet: Boolean(password),
  });

  return {
    async view(): Promise<MailSettingsView> {
      return view(await stored());
    },

    async update(change: MailChange): Promise<MailSettingsView> {
      const next = applied(await stored(), change);
      const value = JSON.stringify(next);
      await db
        .insertInto('settings')
        .values({ key: KEY, value })
        .onConflict((c) => c.column('key').doUpdateSet({ value }))
        .execute();
      return view(next);
    },

    /** The test button: the settings on the form (saved or not) and one recipient. */
    async sendTest(to: string, draft: MailChange): Promise<void> {
      const current = await settings();
      const password = draft.password === undefined ? current.password : draft.password;
      const { passwordSet: _ignored, ...rest } = draft;
      await sendWithSettings(
        { ...current, ...rest, password },
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

import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { AuthService } from '../auth/service.ts';
import { assertPasswordAllowed } from '../auth/password-policy.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import type { UsersService } from '../users/service.ts';
import { MAIL_MESSAGES as M } from './messages.ts';
import type { MailService } from './service.ts';
import { TOKEN_LIFETIME_HOURS, type TokenPurpose, type UserTokens } from './user-tokens.ts';

interface FlowDeps {
  db: Database;
  mail: MailService;
  tokens: UserTokens;
  auth: AuthService;
  users: UsersService;
  securityConfig: SecurityConfigService;
}

/** One reset mail a minute per user at most: the form must not become a mail cannon. */
const RESET_MAIL_INTERVAL_SECONDS = 60;

const findUser = (db: Database, name: string) =>
  db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'internal_password_disabled'])
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();

/** The links in mails: the console's routes (spec 01 §2: reset-password, invitation). */
export const resetLink = (baseUrl: string, key: string) =>
  `${baseUrl.replace(/\/+$/, '')}/ui/auth/reset-password?key=${encodeURIComponent(key)}`;
export const invitationLink = (baseUrl: string, token: string) =>
  `${baseUrl.replace(/\/+$/, '')}/ui/auth/invitation?token=${encodeURIComponent(token)}`;

/** Forgot password, reset by key, and invitations (docs/mail.md). */
export function createPasswordFlows({ db, mail, tokens, auth, users, securityConfig }: FlowDeps) {
  async function recentlyMailed(userId: number): Promise<boolean> {
    const row = await db
      .selectFrom('user_tokens')
      .select('key_sha256')
      .where('user_id', '=', userId)
      .where('purpose', '=', 'reset')
      .where(
        'created_at',
        '>',
        sql<Date>`now() - make_interval(secs => ${RESET_MAIL_INTERVAL_SECONDS})`,
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Sets a password from a mailed key: the policy, once only, and a clean slate after. */
  async function setPasswordWithKey(key: string, purpose: TokenPurpose, password: string) {
    const user = await tokens.live(key, purpose);
    const { passwordPolicy } = await securityConfig.get();
    await assertPasswordAllowed(db, passwordPolicy, password, 'password', {
      id: user.id,
      currentHash: user.password_hash,
    });
    await tokens.use(key, purpose);
    await auth.setPassword(user.id, user.password_hash, password);
    // Whoever reads the mailbox owns the account: its locks from failed guesses end here.
    await users.unlock([user.name]);
    await db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return user.name;
  }

  async function sendInvitation(userId: number, name: string, email: string) {
    const { baseUrl } = await mail.ready();
    const token = await tokens.issue(userId, 'invite');
    await mail.send({
      to: email,
      subject: 'You are invited to Depot',
      text: [
        `Hello ${name},`,
        '',
        'An administrator created a Depot account for you. Choose your password here:',
        invitationLink(baseUrl, token),
        '',
        `The link works once, for ${TOKEN_LIFETIME_HOURS.invite / 24} days.`,
      ].join('\n'),
    });
  }

  /** Mails a reset link when the user exists, has an email and an internal password. */
  async function mailResetLink(name: string, baseUrl: string, log: FastifyBaseLogger) {
    const user = await findUser(db, name);
    if (!user || !user.email || user.internal_password_disabled) return;
    if (await recentlyMailed(user.id)) return;
    const key = await tokens.issue(user.id, 'reset');
    const text = [
      `Hello ${user.name},`,
      '',
      'Someone asked to reset your Depot password. To choose a new one, open:',
      resetLink(baseUrl, key),
      '',
      `The link works once, for ${TOKEN_LIFETIME_HOURS.reset} hours. If you did not ask, ignore this mail.`,
    ].join('\n');
    await mail.send({ to: user.email, subject: 'Reset your password', text });
    log.info({ user: user.name }, 'password reset mail sent');
  }

  return {
    /**
     * Answers "a link is on its way" whoever `name` is: the only work before the answer is
     * checking that mail is set up, the same for every name. Looking the user up, issuing
     * the key and sending run after the answer has gone, so neither the words, nor the
     * timing, nor a failure on the way tell whether the user exists; failures are logged.
     */
    async forgotPassword(name: string, log: FastifyBaseLogger): Promise<void> {
      const { baseUrl } = await mail.ready();
      setImmediate(() => {
        mailResetLink(name, baseUrl, log).catch((error: unknown) =>
          log.warn({ err: error, user: name }, 'reset mail failed'),
        );
      });
    },

    async validateResetKey(key: string): Promise<{ user: string }> {
      return { user: (await tokens.live(key, 'reset')).name };
    },

    resetPassword: (key: string, password: string) => setPasswordWithKey(key, 'reset', password),

    /** Creates a user without a password and mails the invitation to choose one. */
    async invite(input: { name: string; email: string; groups?: string[] }) {
      await mail.ready();
      const created = await users.create({ ...input, password: undefined }, { invited: true });
      const user = (await findUser(db, created.name))!;
      await sendInvitation(user.id, user.name, user.email);
      return created;
    },

    /** A new invitation for a user who has not chosen a password yet; the old link dies. */
    async reInvite(name: string): Promise<{ email: string }> {
      const user = await findUser(db, name);
      if (!user) throw new NotFound(`User '${name}' does not exist`);
      if (!user.email) throw new BadRequest(M.noEmail(user.name));
      if (user.password_hash) throw new BadRequest(M.alreadyAccepted(user.name));
      await sendInvitation(user.id, user.name, user.email);
      return { email: user.email };
    },

    async verifyInvitation(token: string): Promise<{ username: string }> {
      return { username: (await tokens.live(token, 'invite')).name };
    },

    acceptInvitation: (token: string, password: string) =>
      setPasswordWithKey(token, 'invite', password),
  };
}

export type PasswordFlows = ReturnType<typeof createPasswordFlows>;

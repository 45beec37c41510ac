import QRCode from 'qrcode';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../errors.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { AUTH_MESSAGES } from '../auth/messages.ts';
import type { SignInLocks } from '../auth/sign-in-locks.ts';
import { MFA_MESSAGES as M, type MfaStatus } from './messages.ts';
import { createPendingSignIns } from './pending-sign-in.ts';
import { acceptedStep, newTotpSecret, otpauthUri } from './totp.ts';

interface MfaDeps {
  db: Database;
  secrets: SecretBox;
  securityConfig: SecurityConfigService;
  /** Counts a wrong code like a wrong password: the lockout policy covers both. */
  locks: SignInLocks;
}

export interface EnrollmentOffer {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauthUri: string;
  /** The URI as an SVG QR code. */
  qrCode: string;
}

/** TOTP enrollment, verification at sign-in and reset (docs/mfa.md). */
export function createMfaService({ db, secrets, securityConfig, locks }: MfaDeps) {
  const pending = createPendingSignIns(secrets);

  const readUser = (userId: number) =>
    db
      .selectFrom('users')
      .select(['id', 'name', 'mfa_secret', 'mfa_pending_secret', 'mfa_last_step'])
      .where('id', '=', userId)
      .executeTakeFirst();

  /**
   * Accepts a code once: a step at or before the last one accepted is a replay. A wrong code
   * counts toward the lock of the user's name at the caller's address, as a wrong password.
   */
  async function checkCode(
    user: { name: string },
    sealedSecret: string,
    lastStep: string | null,
    code: string,
    address: string,
  ): Promise<number> {
    if (await locks.isLocked(user.name, address)) throw new Forbidden(AUTH_MESSAGES.locked);
    const step = await acceptedStep(secrets.decrypt(sealedSecret), code.trim());
    if (step === undefined || (lastStep !== null && step <= Number(lastStep))) {
      const locked = await locks.failed(user.name, address);
      throw locked ? new Forbidden(AUTH_MESSAGES.locked) : new Unauthorized(M.invalidCode);
    }
    await locks.succeeded(user.name, address);
    return step;
  }

  return {
    pendingSignIns: pending,

    /** What sign-in asks of this user after the password, if anything. */
    async signInStep(userId: number): Promise<MfaStatus | undefined> {
      const [user, { mfa }] = await Promise.all([readUser(userId), securityConfig.get()]);
      if (user?.mfa_secret && mfa.enabled) return 'VERIFY';
      if (mfa.enabled && mfa.enforced) return 'ENROLL';
      return undefined;
    },

    async enrolled(userId: number): Promise<boolean> {
      return Boolean((await readUser(userId))?.mfa_secret);
    },

    /** A fresh secret for the enroll screen, kept sealed until a code confirms it. */
    async offerEnrollment(userId: number): Promise<EnrollmentOffer> {
      if (!(await securityConfig.get()).mfa.enabled) throw new Forbidden(M.disabled);
      const user = await readUser(userId);
      if (!user) throw new NotFound(M.notEnrolled);
      const secret = newTotpSecret();
      await db
        .updateTable('users')
        .set({ mfa_pending_secret: secrets.encrypt(secret) })
        .where('id', '=', userId)
        .execute();
      const uri = otpauthUri(user.name, secret);
      const qrCode = await QRCode.toString(uri, { type: 'svg', margin: 1 });
      return { secret, otpauthUri: uri, qrCode };
    },

    /** A code from the offered secret makes it the user's; the offer is used up. */
    async confirmEnrollment(userId: number, code: string, address: string): Promise<void> {
      const user = await readUser(userId);
      if (!user?.mfa_pending_secret) throw new BadRequest(M.notOffered);
      const step = await checkCode(user, user.mfa_pending_secret, null, code, address);
      await db
        .updateTable('users')
        .set({ mfa_secret: user.mfa_pending_secret, mfa_pending_secret: null, mfa_last_step: step })
        .where('id', '=', userId)
        .execute();
    },

    /** The code of an enrolled user; a wrong one counts toward the lockout. */
    async verify(userId: number, code: string, address: string): Promise<void> {
      const user = await readUser(userId);
      if (!user) throw new Forbidden(M.signInExpired);
      if (!user.mfa_secret) throw new BadRequest(M.notEnrolled);
      const step = await checkCode(user, user.mfa_secret, user.mfa_last_step, code, address);
      await db.updateTable('users').set({ mfa_last_step: step }).where('id', '=', userId).execute();
    },

    /** The user turns MFA off, proving it with a current code; not while it is enforced. */
    async remove(userId: number, code: string, address: string): Promise<void> {
      if ((await securityConfig.get()).mfa.enforced) throw new Forbidden(M.enforced);
      await this.verify(userId, code, address);
      await this.resetById(userId);
    },

    /** An admin's reset (a lost phone): the user enrolls again at the next sign-in or in the profile. */
    async reset(userName: string): Promise<void> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['name']), '=', userName.toLowerCase()))
        .executeTakeFirst();
      if (!row) throw new NotFound(`User '${userName}' does not exist`);
      await this.resetById(row.id);
    },

    async resetById(userId: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;

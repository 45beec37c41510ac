import { jwtVerify, SignJWT } from 'jose';
import type { SecretBox } from '../../crypto/secret-box.ts';

/** The HttpOnly cookie that carries a sign-in between the password and the code. */
export const MFA_PENDING_COOKIE = 'depot_mfa_pending';
/** Long enough to open an authenticator app, short enough that a stolen cookie soon dies. */
export const PENDING_SECONDS = 300;
const AUDIENCE = 'depot-mfa-sign-in';

export interface PendingSignIn {
  userId: number;
  remember: boolean;
}

/**
 * A signed, short-lived proof that the password was right. It opens no session: only
 * /auth/mfa/verify (or enroll, when MFA is enforced) turns it into one with a valid code.
 */
export function createPendingSignIns(secrets: SecretBox) {
  const key = secrets.deriveKey('depot mfa pending sign-in v1');
  return {
    issue({ userId, remember }: PendingSignIn): Promise<string> {
      return new SignJWT({ rem: remember })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${PENDING_SECONDS}s`)
        .sign(key);
    },

    /** The sign-in the cookie carries, or undefined when it is forged, expired or absent. */
    async read(token: string | undefined): Promise<PendingSignIn | undefined> {
      if (!token) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, {
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        const userId = Number(payload.sub);
        return Number.isSafeInteger(userId)
          ? { userId, remember: payload.rem === true }
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

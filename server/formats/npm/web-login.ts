import { randomBytes } from 'node:crypto';
import { NotFound } from '../../errors.ts';

/**
 * npm's web login (`npm login`, whose default is `--auth-type=web`; docs/npm.md): npm POSTs
 * `/-/v1/login` and gets two URLs. The user opens the login URL in the console, signed in,
 * and approves; meanwhile npm polls the done URL, which answers 202 until then and the token
 * once. The two ids differ, so whoever sees the page's URL cannot collect the token.
 *
 * Pending logins live in this process's memory for ten minutes: a login whose page and
 * polls reach different nodes of a cluster does not complete (npm then says so and the
 * user runs it again, or uses `--auth-type=legacy`).
 */
export const WEB_LOGIN_TTL_MS = 10 * 60_000;
/** At most this many logins wait at once; the oldest gives way (the POST is public). */
const MAX_PENDING = 1000;

export type WebLoginState = 'pending' | 'approved' | 'denied';

interface PendingLogin {
  loginId: string;
  doneId: string;
  repoKey: string;
  createdAt: number;
  state: WebLoginState;
  /** The token issued on approval, handed to npm once. */
  token?: string;
  user?: string;
}

const newId = () => randomBytes(24).toString('base64url');

export const WEB_LOGIN_MESSAGES = {
  unknown: 'This npm login is unknown or has expired: run npm login again',
  denied: 'The npm login was denied in the browser',
  settled: (state: WebLoginState) => `This npm login was already ${state}`,
  approved: (repoKey: string, user: string) => `npm is signed in to ${repoKey} as ${user}`,
  deniedHere: 'The npm login was denied',
};

export function createWebLogins(now: () => number = Date.now) {
  const byDoneId = new Map<string, PendingLogin>();
  const byLoginId = new Map<string, PendingLogin>();

  function forget(login: PendingLogin) {
    byDoneId.delete(login.doneId);
    byLoginId.delete(login.loginId);
  }

  function sweep() {
    for (const login of byDoneId.values())
      if (now() - login.createdAt > WEB_LOGIN_TTL_MS) forget(login);
  }

  function pendingByLoginId(loginId: string): PendingLogin {
    sweep();
    const login = byLoginId.get(loginId);
    if (!login) throw new NotFound(WEB_LOGIN_MESSAGES.unknown);
    return login;
  }

  return {
    /** A new login for npm: the ids of its page and of its polls. */
    start(repoKey: string): { loginId: string; doneId: string } {
      sweep();
      // Maps keep insertion order: the first entry is the oldest.
      if (byDoneId.size >= MAX_PENDING) forget(byDoneId.values().next().value!);
      const login: PendingLogin = {
        loginId: newId(),
        doneId: newId(),
        repoKey,
        createdAt: now(),
        state: 'pending',
      };
      byDoneId.set(login.doneId, login);
      byLoginId.set(login.loginId, login);
      return { loginId: login.loginId, doneId: login.doneId };
    },

    /** What the console's page shows of a login. */
    describe(loginId: string) {
      const { repoKey, createdAt, state } = pendingByLoginId(loginId);
      return { repoKey, createdAt: new Date(createdAt).toISOString(), state };
    },

    /** Approves a pending login with a token `issue` makes for the signed-in user. */
    async approve(loginId: string, user: string, issue: () => Promise<string>): Promise<string> {
      const login = pendingByLoginId(loginId);
      if (login.state !== 'pending') throw new NotFound(WEB_LOGIN_MESSAGES.settled(login.state));
      login.state = 'approved';
      login.user = user;
      login.token = await issue();
      return login.repoKey;
    },

    deny(loginId: string): void {
      const login = pendingByLoginId(loginId);
      if (login.state !== 'pending') throw new NotFound(WEB_LOGIN_MESSAGES.settled(login.state));
      login.state = 'denied';
    },

    /**
     * What npm's poll gets: still pending, the token (once; the login is then gone), or a
     * denial. Unknown and expired logins are undefined.
     */
    poll(doneId: string): { state: WebLoginState; token?: string } | undefined {
      sweep();
      const login = byDoneId.get(doneId);
      if (!login) return undefined;
      if (login.state === 'pending' || !login.token) return { state: login.state };
      forget(login);
      return { state: login.state, token: login.token };
    },
  };
}

export type WebLogins = ReturnType<typeof createWebLogins>;

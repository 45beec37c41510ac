import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives, for tests of the mail flows.
 * With `credentials`, it refuses senders that do not log in with them.
 */
export async function startSmtpServer(credentials?: { user: string; password: string }) {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === credentials?.user && auth.password === credentials?.password;
      callback(
        ok ? null : new Error('Invalid username or password'),
        ok ? { user: auth.username } : undefined,
      );
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    /** Waits until `count` mails have arrived (or fails after a while). */
    async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} mails, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link of a given console route in a mail's text. */
export function linkIn(text: string, route: string): URL {
  const match = text.match(new RegExp(`https?://\\S+${route.replace(/\//g, '\\/')}\\S*`));
  if (!match) throw new Error(`no ${route} link in: ${text}`);
  return new URL(match[0]);
}

import { connect, type Socket } from 'node:net';
import { PROXY_MESSAGES as M } from './messages.ts';
import {
  authenticateMessage,
  negotiateMessage,
  NtlmMessageError,
  parseChallenge,
  type NtlmCredentials,
} from './ntlm.ts';
import { ProxyFailure } from './proxy-failure.ts';
import type { OutboundProxy } from './service.ts';

/** The start of a request to the proxy: its line and headers, without Proxy-Authorization. */
export interface ProxyRequestHead {
  line: string;
  headers: Record<string, string>;
}

interface ProxyAnswer {
  status: number;
  headers: Map<string, string[]>;
}

/** Whether a proxy authenticates with NTLM: a user and an NT domain or host (docs/proxies.md). */
export const usesNtlm = (proxy: OutboundProxy) =>
  Boolean(proxy.username && (proxy.domain || proxy.ntHost));

const credentialsOf = (proxy: OutboundProxy): NtlmCredentials => ({
  username: proxy.username,
  password: proxy.password,
  domain: proxy.domain ?? '',
  workstation: proxy.ntHost ?? '',
});

const END_OF_HEAD = '\r\n\r\n';

function parseHead(text: string): ProxyAnswer {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { status, headers };
}

/** Whether the bytes after the head hold the whole body (Content-Length or chunked). */
function bodyComplete(answer: ProxyAnswer, body: Buffer): boolean {
  const chunked = answer.headers.get('transfer-encoding')?.some((v) => /chunked/i.test(v));
  if (chunked) return body.includes('0\r\n\r\n');
  return body.length >= Number(answer.headers.get('content-length')?.[0] ?? 0);
}

/**
 * Reads one answer of the proxy, body included, so that the connection is ready for the
 * next request: NTLM authenticates the connection, not a request.
 */
function readAnswer(socket: Socket, proxy: OutboundProxy): Promise<ProxyAnswer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let answer: ProxyAnswer | undefined;
    let bodyStart = 0;
    const settle = (error?: Error) => {
      socket.off('data', onData).off('error', settle).off('close', onClose);
      if (error) return reject(error);
      resolve(answer!);
    };
    const onClose = () => settle(new ProxyFailure(M.ntlmClosed(proxy.key)));
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!answer) {
        const end = received.indexOf(END_OF_HEAD);
        if (end < 0) return;
        answer = parseHead(received.subarray(0, end).toString('latin1'));
        bodyStart = end + END_OF_HEAD.length;
      }
      if (bodyComplete(answer, received.subarray(bodyStart))) settle();
    };
    socket.on('data', onData).on('error', settle).on('close', onClose);
  });
}

const headText = (head: ProxyRequestHead, authorization: string) =>
  [
    head.line,
    ...Object.entries({
      ...head.headers,
      'proxy-authorization': authorization,
      'proxy-connection': 'keep-alive',
    }).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');

/** The proxy's CHALLENGE from a 407 answer, or why there is none. */
function challengeOf(answer: ProxyAnswer, proxy: OutboundProxy) {
  const offered = (answer.headers.get('proxy-authenticate') ?? [])
    .map((value) => /^NTLM\s+(\S+)/i.exec(value)?.[1])
    .find(Boolean);
  if (answer.status !== 407 || !offered)
    throw new ProxyFailure(M.ntlmNotOffered(proxy.key, answer.status), false, true);
  try {
    return parseChallenge(offered);
  } catch (error) {
    if (error instanceof NtlmMessageError)
      throw new ProxyFailure(M.ntlmNotOffered(proxy.key, answer.status), false, true);
    throw error;
  }
}

/** The connection without the handshake's timeout: the request on it sets its own. */
function released(socket: Socket): Socket {
  socket.setTimeout(0);
  socket.removeAllListeners('timeout');
  return socket;
}

function connectTo(proxy: OutboundProxy, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port, proxy.host);
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new ProxyFailure(M.noAnswer(proxy.key, timeoutMs / 1000), true)),
    );
    socket.once('connect', () => {
      socket.off('error', failed);
      resolve(socket);
    });
    const failed = (error: Error) =>
      reject(
        error instanceof ProxyFailure
          ? error
          : new ProxyFailure(M.unreachable(proxy.key, error.message)),
      );
    socket.once('error', failed);
  });
}

/**
 * Runs NTLM's first two legs on a new connection to the proxy: NEGOTIATE with `probe`, the
 * proxy's 407 with its CHALLENGE. Answers the connection and the AUTHENTICATE value the
 * next request on it carries (`Proxy-Authorization: NTLM ...`). A wrong password shows as
 * the proxy's 407 to that request.
 */
export async function ntlmNegotiate(
  proxy: OutboundProxy,
  probe: ProxyRequestHead,
  timeoutMs: number,
): Promise<{ socket: Socket; authorization: string }> {
  const socket = await connectTo(proxy, timeoutMs);
  try {
    socket.write(headText(probe, `NTLM ${negotiateMessage()}`));
    const challenge = challengeOf(await readAnswer(socket, proxy), proxy);
    return {
      socket: released(socket),
      authorization: `NTLM ${authenticateMessage(challenge, credentialsOf(proxy))}`,
    };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/** A CONNECT tunnel through an NTLM proxy: the three legs on one connection. */
export async function ntlmTunnel(
  proxy: OutboundProxy,
  target: string,
  timeoutMs: number,
): Promise<Socket> {
  const connectHead = { line: `CONNECT ${target} HTTP/1.1`, headers: { host: target } };
  const { socket, authorization } = await ntlmNegotiate(proxy, connectHead, timeoutMs);
  try {
    socket.write(headText(connectHead, authorization));
    const answer = await readAnswer(socket, proxy);
    if (answer.status !== 200)
      throw new ProxyFailure(M.refusedTunnel(proxy.key, target, answer.status), false, true);
    return released(socket);
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

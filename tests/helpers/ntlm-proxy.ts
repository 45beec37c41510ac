import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** One request the proxy saw, with what its NTLM AUTHENTICATE message said. */
export interface NtlmSeen {
  method: string;
  target: string;
  /** Which leg: none (no NTLM header), negotiate, or authenticate (verified or not). */
  leg: 'none' | 'negotiate' | 'authenticated' | 'refused';
  username?: string;
  domain?: string;
  workstation?: string;
  /** The connection the request came on, numbered from 1. */
  connection: number;
}

export interface NtlmAccount {
  username: string;
  domain: string;
  /** MD4 of the UTF-16LE password (the NT hash): what a domain controller keeps. */
  ntHash: string;
}

const hmacMd5 = (key: Buffer, ...parts: Buffer[]) =>
  parts.reduce((hmac, part) => hmac.update(part), createHmac('md5', key)).digest();

/** MsvAvNbDomainName, MsvAvNbComputerName, MsvAvTimestamp, MsvAvEOL. */
function targetInfo(domain: string): Buffer {
  const pair = (id: number, value: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(id);
    head.writeUInt16LE(value.length, 2);
    return Buffer.concat([head, value]);
  };
  const time = Buffer.alloc(8);
  time.writeBigUInt64LE((BigInt(Date.now()) + 11644473600000n) * 10000n);
  return Buffer.concat([
    pair(2, Buffer.from(domain, 'utf16le')),
    pair(1, Buffer.from('PROXY', 'utf16le')),
    pair(7, time),
    pair(0, Buffer.alloc(0)),
  ]);
}

function challengeMessage(serverChallenge: Buffer, info: Buffer): string {
  const message = Buffer.alloc(48);
  message.write('NTLMSSP\0', 'latin1');
  message.writeUInt32LE(2, 8);
  // Unicode, NTLM, extended session security, target info.
  message.writeUInt32LE(0x00889205, 20);
  serverChallenge.copy(message, 24);
  message.writeUInt16LE(info.length, 40);
  message.writeUInt16LE(info.length, 42);
  message.writeUInt32LE(48, 44);
  return Buffer.concat([message, info]).toString('base64');
}

/** The AUTHENTICATE message's fields, and whether its NTLMv2 response proves the password. */
function verify(base64: string, serverChallenge: Buffer, info: Buffer, account: NtlmAccount) {
  const message = Buffer.from(base64, 'base64');
  const field = (index: number) => {
    const length = message.readUInt16LE(12 + index * 8);
    const offset = message.readUInt32LE(16 + index * 8);
    return message.subarray(offset, offset + length);
  };
  const [nt, domain, username, workstation] = [1, 2, 3, 4].map(field) as Buffer[];
  const said = {
    username: username!.toString('utf16le'),
    domain: domain!.toString('utf16le'),
    workstation: workstation!.toString('utf16le'),
  };
  if (message.readUInt32LE(8) !== 3 || nt!.length < 48) return { ...said, proven: false };
  const key = hmacMd5(
    Buffer.from(account.ntHash, 'hex'),
    Buffer.from(account.username.toUpperCase() + account.domain, 'utf16le'),
  );
  const blob = nt!.subarray(16);
  const proof = hmacMd5(key, serverChallenge, blob);
  const proven =
    said.username.toUpperCase() === account.username.toUpperCase() &&
    said.domain === account.domain &&
    timingSafeEqual(proof, nt!.subarray(0, 16)) &&
    blob.subarray(28, 28 + info.length).equals(info);
  return { ...said, proven };
}

interface Head {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Reads request heads (and Content-Length bodies) off a connection, one at a time. */
function onRequests(socket: Socket, handle: (head: Head) => void) {
  let received = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return;
    const [line = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const header of lines) {
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (received.length < end + 4 + length) return;
    const body = received.subarray(end + 4, end + 4 + length);
    received = received.subarray(end + 4 + length);
    const [method = '', target = ''] = line.split(' ');
    handle({ method, target, headers, body });
  };
  socket.on('data', onData);
  return () => socket.off('data', onData);
}

/**
 * A forward proxy on loopback that demands NTLM: a request without it gets 407 offering
 * NTLM; NEGOTIATE gets a CHALLENGE on the same connection; AUTHENTICATE is checked by
 * computing the NTLMv2 response from the account's NT hash. Then CONNECT opens a tunnel and
 * a plain request is passed on; a wrong proof gets 407 and goes nowhere.
 */
export async function startNtlmProxy(account: NtlmAccount) {
  const seen: NtlmSeen[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    const connection = ++connections;
    let challenge: { server: Buffer; info: Buffer } | undefined;
    const stop = onRequests(client, (head) => {
      const token = /^NTLM\s+(\S+)/i.exec(head.headers['proxy-authorization'] ?? '')?.[1];
      const type = token ? Buffer.from(token, 'base64').readUInt32LE(8) : 0;
      const record = { method: head.method, target: head.target, connection };
      if (type === 1) {
        challenge = { server: randomBytes(8), info: targetInfo(account.domain) };
        seen.push({ ...record, leg: 'negotiate' });
        const offer = challengeMessage(challenge.server, challenge.info);
        const body = 'NTLM challenge\n';
        return client.write(
          `HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM ${offer}\r\n` +
            `Content-Length: ${body.length}\r\n\r\n${body}`,
        );
      }
      const checked =
        type === 3 && challenge && verify(token!, challenge.server, challenge.info, account);
      if (!checked || !checked.proven) {
        seen.push({ ...record, leg: type === 3 ? 'refused' : 'none', ...(checked || {}) });
        return client.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM\r\n' +
            'Content-Length: 0\r\nConnection: close\r\n\r\n',
        );
      }
      const { proven: _, ...who } = checked;
      seen.push({ ...record, leg: 'authenticated', ...who });
      stop();
      if (head.method === 'CONNECT') return tunnel(client, head.target, sockets);
      pass(client, head);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function tunnel(client: Socket, target: string, sockets: Set<Socket>) {
  const [host, port] = target.split(/:(?=\d+$)/);
  const upstream = connect(Number(port), host!.replace(/^\[|\]$/g, ''), () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.pipe(client);
    client.pipe(upstream);
  });
  sockets.add(upstream);
  upstream.on('error', () => client.destroy());
}

/** Passes a plain request on and answers it, then closes the connection. */
function pass(client: Socket, head: Head) {
  const headers = { ...head.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const onward = httpRequest(head.target, { method: head.method, headers }, (answer) => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      const body = Buffer.concat(chunks);
      client.end(
        `HTTP/1.1 ${answer.statusCode} OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
          body.toString('latin1'),
        'latin1',
      );
    });
  });
  onward.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  onward.end(head.body);
}

export type NtlmProxy = Awaited<ReturnType<typeof startNtlmProxy>>;

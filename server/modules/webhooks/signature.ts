import { createHmac } from 'node:crypto';

/** The headers a delivery carries (docs/webhooks.md, "What a receiver gets"). */
export const HEADERS = {
  /** The secret as JFrog receivers read it, or with signing on, the body's signature. */
  auth: 'X-JFrog-Event-Auth',
  signature: 'X-Depot-Signature-256',
  delivery: 'X-Depot-Delivery',
  event: 'X-Depot-Event',
} as const;

/**
 * Headers the HTTP exchange itself sets or governs (hop-by-hop): a subscription's own cannot
 * replace them, and the HTTP client refuses a request that carries the last three.
 */
const TRANSPORT_HEADERS = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
];

/** The HMAC-SHA256 of a body with the secret, in hex. */
export const signatureOf = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/**
 * The headers of one delivery: the subscription's own first, then Depot's, which they cannot
 * replace. Without a secret, nothing is signed and no auth header is sent.
 */
export function deliveryHeaders(options: {
  body: string;
  secret: string | undefined;
  useSecretForSigning: boolean;
  customHeaders: { name: string; value: string }[];
  deliveryId: string;
  event: string;
}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, value } of options.customHeaders) headers[name.toLowerCase()] = value;
  for (const name of [...Object.values(HEADERS), ...TRANSPORT_HEADERS])
    delete headers[name.toLowerCase()];
  headers[HEADERS.delivery] = options.deliveryId;
  headers[HEADERS.event] = options.event;
  if (options.secret) {
    const signature = signatureOf(options.secret, options.body);
    headers[HEADERS.signature] = `sha256=${signature}`;
    headers[HEADERS.auth] = options.useSecretForSigning ? signature : options.secret;
  }
  return headers;
}

/** The proxies area's words (docs/proxies.md). */
export const PROXY_MESSAGES = {
  notConfigured: (key: string) => `Proxy '${key}' is not configured`,
  anotherDefault: (other: string) =>
    `Proxy '${other}' is already the default proxy: clear its Default Proxy first`,
  inUse: (key: string, users: string[]) =>
    `Proxy '${key}' is used by ${users.join(', ')}: choose another proxy for them first`,
  unreachable: (key: string, why: string) => `Proxy '${key}' could not be reached: ${why}`,
  refusedTunnel: (key: string, target: string, status: number) =>
    `Proxy '${key}' refused the connection to ${target} (${status}${status === 407 ? ': proxy authentication required' : ''})`,
  noAnswer: (key: string, seconds: number) => `Proxy '${key}' did not answer within ${seconds} s`,
} as const;

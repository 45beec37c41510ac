/** The proxies area's words (docs/proxies.md). */
export const PROXY_MESSAGES = {
  passwordForNewHost:
    'Enter the password again: the stored one goes only to the proxy host and port it was saved for',
  notConfigured: (key: string) => `Proxy '${key}' is not configured`,
  anotherDefault: (other: string) =>
    `Proxy '${other}' is already the default proxy: clear its Default Proxy first`,
  inUse: (key: string, users: string[]) =>
    `Proxy '${key}' is used by ${users.join(', ')}: choose another proxy for them first`,
  unreachable: (key: string, why: string) => `Proxy '${key}' could not be reached: ${why}`,
  refusedTunnel: (key: string, target: string, status: number) =>
    `Proxy '${key}' refused the connection to ${target} (${status}${status === 407 ? ': proxy authentication required' : ''})`,
  ntlmNotOffered: (key: string, status: number) =>
    `Proxy '${key}' did not offer NTLM authentication (it answered ${status}); clear the NT Domain and NT Host to use basic authentication`,
  ntlmClosed: (key: string) => `Proxy '${key}' closed the connection during NTLM authentication`,
  refusedRequest: (key: string, target: string) =>
    `Proxy '${key}' refused the request to ${target} (407: proxy authentication required)`,
  noAnswer: (key: string, seconds: number) => `Proxy '${key}' did not answer within ${seconds} s`,
} as const;

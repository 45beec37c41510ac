/** The webhook area's words (spec 03 "Webhooks", §5 and §8; docs/webhooks.md). */
export const WEBHOOK_MESSAGES = {
  testSucceeded: 'A dummy hook was executed and sent to the configured URL',
  testFailed: 'Sending a dummy Webhook failed',
  notAnEventOf: (type: string, domain: string) =>
    `'${type}' is not an event of the ${domain} domain`,
  noRepositories: 'Select at least one repository, or any local or any remote repository',
  noBuilds: 'Select at least one build, a build pattern, or any build',
  unknownRepository: (key: string) => `Repository '${key}' does not exist`,
  noProxy: (proxy: string) => `Proxy '${proxy}' is not configured`,
  secretForNewUrl:
    'Enter the secret token again: the stored one goes only to the URL it was saved with',
  deliveryNotFound: (id: string) => `Delivery '${id}' could not be found.`,
  stillPending: (id: string) => `Delivery '${id}' is still being delivered`,
  redelivered: (id: string) => `Delivery '${id}' will be sent again`,
} as const;

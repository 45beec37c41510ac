import { expect } from 'vitest';
import type { DepotApp } from '../../server/app.ts';
import { adminAuth } from './test-app.ts';

/** Subscribes `url` to the deploys in `repoKey` (the admin's call), and checks it was made. */
export async function subscribeToDeploys(
  depot: DepotApp,
  subscription: { key: string; repoKey: string; url: string; secret?: string },
): Promise<void> {
  const created = await depot.app.inject({
    method: 'POST',
    url: '/event/api/v1/subscriptions',
    headers: adminAuth(),
    payload: {
      key: subscription.key,
      event_filter: {
        domain: 'artifact',
        event_types: ['deployed'],
        criteria: { repoKeys: [subscription.repoKey] },
      },
      handlers: [
        {
          handler_type: 'webhook',
          url: subscription.url,
          ...(subscription.secret ? { secret: subscription.secret } : {}),
        },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
}

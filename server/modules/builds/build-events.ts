import type { OutboxEvent } from '../events/outbox.ts';

export type BuildEventType = 'uploaded' | 'deleted' | 'promoted';

/**
 * A build event for the webhook outbox, in JFrog's documented `build` domain shape
 * (`build_name`, `event_type`, `build_number`, `build_started`). The build's name is the
 * event's path: subscriptions pick builds by name and filter names with their patterns
 * (webhooks/matching.ts).
 */
export function buildEvent(
  eventType: BuildEventType,
  build: { name: string; number: string; started: string },
  user: string,
): OutboxEvent {
  return {
    domain: 'build',
    eventType,
    data: {
      build_name: build.name,
      event_type: eventType,
      build_number: build.number,
      build_started: build.started,
    },
    user,
    path: build.name,
  };
}

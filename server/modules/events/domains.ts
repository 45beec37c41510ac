/**
 * The event domains Depot serves and their event types (spec 03 "Webhook"; docs/webhooks.md).
 * A domain is listed once the service behind it emits its events: the archive adds
 * its own here when it lands, with its emission (`emitEvents`).
 */
export const EVENT_DOMAINS = {
  artifact: {
    name: 'Artifacts',
    eventTypes: {
      deployed: 'Artifact was deployed',
      deleted: 'Artifact was deleted',
      moved: 'Artifact was moved',
      copied: 'Artifact was copied',
    },
  },
  artifact_property: {
    name: 'Artifact properties',
    eventTypes: {
      added: 'Artifact property was added',
      deleted: 'Artifact property was deleted',
    },
  },
  build: {
    name: 'Builds',
    eventTypes: {
      uploaded: 'Build was uploaded',
      deleted: 'Build was deleted',
      promoted: 'Build was promoted',
    },
  },
  docker: {
    name: 'Docker',
    eventTypes: {
      pushed: 'Docker tag was pushed',
      deleted: 'Docker tag was deleted',
      promoted: 'Docker tag was promoted',
    },
  },
} as const;

export type EventDomain = keyof typeof EVENT_DOMAINS;

export const isEventDomain = (domain: string): domain is EventDomain =>
  Object.hasOwn(EVENT_DOMAINS, domain);

export const eventTypesOf = (domain: EventDomain): string[] =>
  Object.keys(EVENT_DOMAINS[domain].eventTypes);

/** `GET event/api/v1/domains`: each domain with its event types, as the Event API lists them. */
export const domainList = () =>
  Object.entries(EVENT_DOMAINS).map(([key, domain]) => ({
    key,
    name: domain.name,
    event_types: Object.entries(domain.eventTypes).map(([type, description]) => ({
      key: type,
      name: description,
    })),
  }));

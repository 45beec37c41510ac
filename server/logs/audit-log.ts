import { openLogDestination, type LogRotation } from './log-destination.ts';
import { lineField } from './log-line.ts';

/** Sign-ins and changes to users, groups, permissions, tokens and configuration (docs/logs.md). */
export const AUDIT_LOG_FILE = 'depot-audit.log';

export type AuditKind =
  'sign-in' | 'sign-out' | 'user' | 'group' | 'permission' | 'token' | 'configuration';

export interface AuditEvent {
  kind: AuditKind;
  /** Who acted, or for a sign-in the name that tried. */
  user: string;
  address: string;
  /** `ok`, or `failed` with the status the request was answered. */
  outcome: string;
  /** The route as declared (`PUT /ui/api/v1/ui/users/:name`). */
  action: string;
  /** The route's parameters (`name=bob`), each value URI-encoded. */
  target: string;
}

export interface AuditLog {
  write(event: AuditEvent): void;
  close(): Promise<void>;
}

/** `time|node|client address|user|kind|outcome|action|target`, one line an event. */
export function createAuditLog(logDir: string, nodeId: string, rotation: LogRotation): AuditLog {
  const file = openLogDestination(logDir, AUDIT_LOG_FILE, rotation);
  return {
    write(event) {
      const line = [
        new Date().toISOString(),
        nodeId,
        event.address,
        event.user,
        event.kind,
        event.outcome,
        event.action,
        event.target,
      ]
        .map((field) => lineField(String(field)))
        .join('|');
      file.write(`${line}\n`);
    },
    close: () =>
      new Promise((resolve) => {
        file.once('close', () => resolve());
        file.end();
      }),
  };
}

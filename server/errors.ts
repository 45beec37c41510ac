/**
 * Typed errors services throw; one error handler (server/http/error-handler.ts) maps them to
 * HTTP. `field` names the input at fault so the console can show the message on that field.
 */
export class DepotError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends DepotError {
  constructor(message: string, field?: string) {
    super(400, message, field);
  }
}

export class Unauthorized extends DepotError {
  constructor(message = 'Bad credentials', code?: string) {
    super(401, message, undefined, code);
  }
}

/** The console's session ended elsewhere: it goes to sign-in (spec 01 §8, status 420). */
export class SessionEnded extends DepotError {
  constructor(message: string) {
    super(420, message, undefined, 'SESSION_ENDED');
  }
}

/** The console's cookie now belongs to another user: it reloads (spec 01 §8, status 333). */
export class UserChanged extends DepotError {
  constructor(message: string) {
    super(333, message, undefined, 'USER_CHANGED');
  }
}

export class Forbidden extends DepotError {
  constructor(message = 'You are not authorized to perform this action') {
    super(403, message);
  }
}

/**
 * A signed-in user refused an artifact. With "hide existence of unauthorized resources" on,
 * a refusal of something the user cannot even read answers as `notFoundMessage` (404), so
 * that names of repositories and paths do not leak (docs/security-config.md).
 */
export class AccessDenied extends Forbidden {
  constructor(
    message: string,
    readonly notFoundMessage?: string,
  ) {
    super(message);
  }
}

/** Too many attempts: the answer says when to try again (Retry-After, seconds). */
export class TooManyRequests extends DepotError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

export class NotFound extends DepotError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends DepotError {
  constructor(message: string, field?: string) {
    super(409, message, field);
  }
}

/** A write that names the version it read (If-Match) when the document has moved on since. */
export class PreconditionFailed extends DepotError {
  constructor(message: string) {
    super(412, message);
  }
}

/** A request body larger than a configured limit: nothing of it is kept. */
export class PayloadTooLarge extends DepotError {
  constructor(message: string) {
    super(413, message);
  }
}

/** The filestore's disk is full: nothing of the upload is kept. */
export class InsufficientStorage extends DepotError {
  constructor(message = 'Not enough disk space to store the artifact') {
    super(507, message);
  }
}

/** The database cannot answer right now (restarting after a failure, unreachable). */
export class DatabaseUnavailable extends DepotError {
  constructor(message = 'The database is unavailable. Try again shortly.') {
    super(503, message);
  }
}

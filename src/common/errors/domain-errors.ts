/**
 * Errors the services raise for the client's situation (not for bugs). The error translator maps each to its
 * status and code for every transport, so services never import HTTP classes.
 */
export class DomainError extends Error {}

/** No usable credentials (401). */
export class UnauthenticatedError extends DomainError {}

/** Credentials that may not do this (403). */
export class ForbiddenError extends DomainError {}

export class NotFoundError extends DomainError {}

/** The request conflicts with the resource's current state (finished episode, concurrent step). */
export class ConflictError extends DomainError {}

/** A quota is used up (429). */
export class TooManyError extends DomainError {
  constructor(
    message: string,
    /** Seconds until a retry can succeed, when known. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The service cannot take the request right now (it is shutting down, the database is busy); retry (503). */
export class UnavailableError extends DomainError {}

/** A message that is not acceptable as a whole: malformed, too deep, not text (400). */
export class MalformedInputError extends DomainError {}

/** A body in a format the API does not take (415). */
export class UnsupportedMediaTypeError extends DomainError {}

/** One field in a failed validation. */
export interface FieldProblem {
  /** Dotted path of the offending field, e.g. "action.ticket_id". */
  field: string;
  message: string;
}

/** A well-formed request whose fields break the API's rules (422), with every bad field named. */
export class ValidationFailedError extends DomainError {
  constructor(readonly details: FieldProblem[]) {
    super(details.map((d) => (d.message.startsWith(`${d.field} `) ? d.message : `${d.field}: ${d.message}`)).join('; ') || 'validation failed');
  }
}

/** A well-formed request whose field names something that does not exist (422). */
export class InvalidFieldError extends ValidationFailedError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super([{ field, message }]);
    this.message = message;
  }
}

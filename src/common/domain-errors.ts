/**
 * Errors the services raise for the client's situation (not for bugs). The global exception filter maps each
 * to its status, so services never import HTTP classes.
 */
export class NotFoundError extends Error {}

/** The request conflicts with the resource's current state (finished episode, concurrent step). */
export class ConflictError extends Error {}

/** A quota is used up (429). */
export class TooManyError extends Error {}

/** The service cannot take the request right now (it is shutting down); the client may retry (503). */
export class UnavailableError extends Error {}

/** A well-formed request whose field names something that does not exist. */
export class InvalidFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A migration could not be applied, or must not be: start-up stops with its message. */
export class MigrationError extends Error {}

/** A backup or restore that stopped before changing anything, for a reason the operator can act on (exit code 1). */
export class OperationRefused extends Error {}

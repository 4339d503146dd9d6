/**
 * Bodies a DTO accepts, decided by a check compiled from the DTO's own schema in the OpenAPI document (the document
 * states exactly what the DTO's decorators accept: the OpenAPI conformance test holds it to that). The validation
 * pipe asks the compiled check first: a body it accepts is taken as it is, without class-validator's and
 * class-transformer's cost (about a tenth of a step's CPU); a body it refuses goes through class-validator, which
 * words the 422. `compiled-body-checks.spec.ts` proves the two accept and refuse the same bodies.
 */
export type BodyCheck = (value: unknown) => boolean;

const checks = new Map<Function, BodyCheck>();

/** Registered once at start-up (create-app) for the hot bodies: POST /step, its batch items, /ws and MCP steps. */
export function registerBodyCheck(dto: Function, check: BodyCheck): void {
  checks.set(dto, check);
}

export function bodyCheckOf(dto: Function | undefined): BodyCheck | undefined {
  return dto === undefined ? undefined : checks.get(dto);
}

import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { bodyCheckOf } from './compiled-body-checks';
import { ValidationFailedError, type FieldProblem } from './errors/domain-errors';

/**
 * Flattens class-validator's tree into `field: message` pairs with dotted paths. A required field that is missing
 * (or null, which means the same) is reported as such ("action.ticket_id is required"), not by the first rule its
 * absence happens to break ("ticket_id must be a string").
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.values(error.constraints ?? {});
    // An undeclared field is reported as one whatever it holds (null is validated as an absent value).
    const undeclared = error.constraints?.whitelistValidation !== undefined;
    const missing = error.value === undefined && constraints.length > 0 && !undeclared;
    const own = missing ? [{ field, message: `${field} is required` }] : constraints.map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/**
 * One pipe for every route (and for /ws messages and MCP tool arguments): unknown fields are rejected (not
 * silently dropped), nothing is coerced, and failures are a ValidationFailedError (422) naming every field.
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // One message per field: the first rule it breaks, not every rule downstream of that.
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value is kept only to tell a missing field from a wrong one; no message repeats it.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/** Names every object inherits; no DTO declares one. */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Two rules the validator does not apply by itself, on every body, query and message:
 * - a field sent as `null` means the same as the field left out (clients that serialize optional values as null,
 *   as LLM tool calls in strict mode do, get the default, and a required field sent as null is reported missing);
 * - class-validator's whitelist looks field names up in a plain object, so a field named like an inherited member
 *   ("constructor", "toString", "valueOf"...) would count as declared and slip through `forbidNonWhitelisted`;
 *   such fields are refused here first, with the message the whitelist gives any unknown field.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A body the compiled check accepts is one class-validator accepts too: taken as it is (nulls as absent).
    if (metadata.type === 'body' && value !== null && typeof value === 'object' && bodyCheckOf(metadata.metatype)?.(value)) {
      return withoutNullFields(value);
    }
    if (metadata.type === 'body' || metadata.type === 'query') {
      const details = inheritedNameFields(value);
      if (details.length > 0) {
        throw new ValidationFailedError(details);
      }
      if (hasNullField(value)) {
        // Null stands for "not given" only in a field the message declares: validated first with every null as
        // an absent value (the key kept), an undeclared field is refused whatever its value, as it is on its own.
        await super.transform(withNullFieldsAbsent(value), metadata);
      }
      return super.transform(withoutNullFields(value), metadata);
    }
    return super.transform(value, metadata);
  }
}

function hasNullField(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some((child) => child === null || hasNullField(child));
}

/** A copy whose object fields holding null hold undefined instead (the keys stay), at every depth. */
function withNullFieldsAbsent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNullFieldsAbsent);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, child === null ? undefined : withNullFieldsAbsent(child)]));
}

/** A copy without the object fields whose value is null, at every depth (array items are kept as they are). */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, child]) => child !== null)
      .map(([key, child]) => [key, withoutNullFields(child)]),
  );
}

function inheritedNameFields(value: unknown, parent = ''): FieldProblem[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const field = parent ? `${parent}.${key}` : key;
    if (INHERITED_NAMES.has(key)) return [{ field, message: `property ${key} should not exist` }];
    return inheritedNameFields(child, field);
  });
}

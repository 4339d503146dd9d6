import { UnprocessableEntityException, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ErrorDetailDto } from './error-body.dto';

/** Flattens class-validator's tree into `field: message` pairs with dotted paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetailDto[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/**
 * One pipe for every route: unknown fields are rejected (not silently dropped), nothing is coerced, and
 * failures are 422 with field-level details.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // One message per field: the first rule it breaks, not every rule downstream of that.
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return new UnprocessableEntityException({
        message: details.map((d) => `${d.field}: ${d.message}`).join('; ') || 'validation failed',
        details,
      });
    },
  });
}

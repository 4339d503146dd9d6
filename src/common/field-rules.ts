import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { hasAtMostDecimals } from '../engine/decimals';

/*
 * Validation rules the OpenAPI document can state exactly, checked the way JSON Schema validators check them, so
 * what the document allows and what the server accepts are the same set:
 * - lengths count Unicode code points (JSON Schema's maxLength), not UTF-16 units, and not class-validator's
 *   count, which leaves out variation selectors;
 * - "at most n decimals" is decided on the number's decimal form, never with float arithmetic;
 * - a number in a query string is a JSON number, written out ("0.5", "1e-3"); "", " ", "0x10" or "Infinity" are
 *   not numbers (Number() would read most of them as one);
 * - a date-time is RFC 3339 with a time zone, as `format: date-time` says, in the form `DATE_TIME_PATTERN` gives.
 */

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** At most `max` characters (code points). */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: {
        validate: (value) => typeof value === 'string' && codePointLength(value) <= max,
        defaultMessage: (args) => `${args?.property} must be at most ${max} characters`,
      },
    },
    options,
  );
}

/** At least `min` characters (code points). */
export function MinChars(min: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'minChars',
      constraints: [min],
      validator: {
        validate: (value) => typeof value === 'string' && codePointLength(value) >= min,
        defaultMessage: (args) => (min === 1 ? `${args?.property} must not be empty` : `${args?.property} must be at least ${min} characters`),
      },
    },
    options,
  );
}

/** A number with at most `places` decimals as written (19.99 yes; 0.005 and 1e-7 no). */
export function MaxDecimalPlaces(places: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxDecimalPlaces',
      constraints: [places],
      validator: {
        validate: (value) => typeof value === 'number' && hasAtMostDecimals(value, places),
        defaultMessage: (args) => `${args?.property} must have at most ${places} decimals`,
      },
    },
    options,
  );
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A query parameter documented as a number: converted when it is written as one, left as text otherwise (so
 * @IsNumber / @IsInt refuse it, naming the parameter). Repeated parameters stay an array and are refused too.
 */
export function QueryNumber(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && JSON_NUMBER.test(value) ? Number(value) : value), { toClassOnly: true });
}

/**
 * RFC 3339 date-time with seconds and a time zone (`Z` or `±hh:mm`), upper-case `T` and `Z`, fractions up to
 * nanoseconds, no leap second: "2026-01-31T09:30:00Z", "2026-01-31T10:30:00.250+01:00". The document states this
 * pattern beside `format: date-time`; a date alone ("2026-01-31") or a time without a zone is refused, since
 * either would be read in some time zone the client did not name.
 */
export const DATE_TIME_PATTERN =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** The instant an RFC 3339 date-time names, or null when it is not one (pattern, or a day its month lacks). */
export function parseDateTime(text: string): Date | null {
  if (!DATE_TIME_PATTERN.test(text)) return null;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (day > daysInMonth(year, month)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTime',
      validator: {
        validate: (value) => typeof value === 'string' && parseDateTime(value) !== null,
        defaultMessage: (args) => `${args?.property} must be an RFC 3339 date-time with a time zone, e.g. 2026-01-31T00:00:00Z`,
      },
    },
    options,
  );
}

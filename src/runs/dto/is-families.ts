import { registerDecorator, type ValidationArguments } from 'class-validator';

/** `families`: "all", or 1-100 distinct task ids of at most 64 characters. */
export function IsFamilies(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isFamilies',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) =>
          value === 'all' ||
          (Array.isArray(value) &&
            value.length >= 1 &&
            value.length <= 100 &&
            value.every((id) => typeof id === 'string' && id.length >= 1 && id.length <= 64) &&
            new Set(value).size === value.length),
        defaultMessage: (_args?: ValidationArguments) => 'families must be "all" or a list of 1-100 distinct task ids (GET /tasks)',
      },
    });
}

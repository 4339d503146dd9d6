import { getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';
import { ACTION_TYPES } from '../../engine/vocabulary';
import { ACTION_DTOS } from './actions.dto';

/** Swagger options for a property holding one action: the same oneOf + discriminator wherever an action appears. */
export function actionPropertyOptions(description: string): ApiPropertyOptions {
  return {
    description,
    oneOf: Object.values(ACTION_DTOS).map((cls) => ({ $ref: getSchemaPath(cls) })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(ACTION_TYPES.map((t) => [t, getSchemaPath(ACTION_DTOS[t])])),
    },
  } as ApiPropertyOptions;
}

import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { actionPropertyOptions } from './action-ref';
import { plainToInstance, Transform } from 'class-transformer';
import { IsDefined, IsNumber, IsObject, IsOptional, IsPositive, IsString, Matches, Max, ValidateNested } from 'class-validator';
import { ACTION_TYPES, type ActionType } from '../../engine/vocabulary';
import { ACTION_DTOS, UnrecognizedAction, type ActionDto } from './actions.dto';
import { EPISODE_ID_MAX_LENGTH, EPISODE_ID_PATTERN, MatchesEpisodeId } from './episode-id';

const actionClasses = Object.values(ACTION_DTOS);


@ApiExtraModels(...actionClasses)
export class StepRequestDto {
  @ApiProperty({ pattern: EPISODE_ID_PATTERN.source, minLength: 1, maxLength: EPISODE_ID_MAX_LENGTH, example: '0b9c2f4e-5d6a-4f0e-9a51-2c0d3f7e8b11' })
  @MatchesEpisodeId()
  @IsString()
  episode_id!: string;

  @ApiProperty({
    required: false,
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
    description:
      'Makes the step idempotent: a retry with the same request_id and action returns the original response ' +
      'and applies nothing; the same request_id with a different action is refused with 409.',
  })
  @Matches(/^[A-Za-z0-9._:-]{1,128}$/, { message: 'request_id must be 1-128 letters, digits, ".", "_", ":" or "-"' })
  @IsString()
  @IsOptional()
  request_id?: string;

  @ApiProperty({
    required: false,
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    maximum: 3600,
    description:
      "OpenEnv's HTTP step request carries a timeout in seconds; it is accepted and not used: a step never waits on " +
      'anything slow (it is answered as soon as its write is committed), and REQUEST_TIMEOUT_MS bounds every request.',
  })
  @Max(3600)
  @IsPositive()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsOptional()
  timeout_s?: number;

  @ApiProperty(actionPropertyOptions('One action, chosen by its `type`.'))
  @ValidateNested()
  @IsObject()
  // Chooses the action class by `type` for plain objects only; anything else (null, arrays, strings) is left
  // as it is for @IsObject to reject. (class-transformer's own discriminator crashes on null array items.)
  @Transform(({ value }) => toActionInstance(value), { toClassOnly: true })
  @IsDefined()
  action!: ActionDto;
}

function toActionInstance(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const type = (value as { type?: unknown }).type;
  if (typeof type === 'string' && (ACTION_TYPES as readonly string[]).includes(type)) {
    return plainToInstance(ACTION_DTOS[type as ActionType] as new () => object, value);
  }
  // Without a known type there is no telling which fields belong: only the type is reported (missing, or not one
  // of the actions), never the other fields as "should not exist".
  return plainToInstance(UnrecognizedAction, type === undefined ? {} : { type });
}

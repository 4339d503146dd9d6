import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { actionPropertyOptions } from './action-ref';
import { Type } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ACTION_TYPES } from '../../engine/vocabulary';
import { ACTION_DTOS, UnrecognizedAction, type ActionDto } from './actions.dto';

const actionClasses = Object.values(ACTION_DTOS);

export const EPISODE_ID_MAX_LENGTH = 64;

@ApiExtraModels(...actionClasses)
export class StepRequestDto {
  @ApiProperty({ maxLength: EPISODE_ID_MAX_LENGTH, example: '0b9c2f4e-5d6a-4f0e-9a51-2c0d3f7e8b11' })
  @IsNotEmpty()
  @MaxLength(EPISODE_ID_MAX_LENGTH)
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

  @ApiProperty(actionPropertyOptions('One action, chosen by its `type`.'))
  @ValidateNested()
  @IsObject()
  @Type(() => UnrecognizedAction, {
    keepDiscriminatorProperty: true,
    discriminator: {
      property: 'type',
      subTypes: ACTION_TYPES.map((name) => ({ name, value: ACTION_DTOS[name] })),
    },
  })
  @IsDefined()
  action!: ActionDto;
}

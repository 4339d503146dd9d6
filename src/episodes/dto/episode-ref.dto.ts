import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EPISODE_ID_MAX_LENGTH } from './step-request.dto';

export class GraderRequestDto {
  @ApiProperty({ maxLength: EPISODE_ID_MAX_LENGTH })
  @IsNotEmpty()
  @MaxLength(EPISODE_ID_MAX_LENGTH)
  @IsString()
  episode_id!: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { EPISODE_ID_MAX_LENGTH, EPISODE_ID_PATTERN, MatchesEpisodeId } from './episode-id';

export class GraderRequestDto {
  @ApiProperty({ pattern: EPISODE_ID_PATTERN.source, minLength: 1, maxLength: EPISODE_ID_MAX_LENGTH })
  @MatchesEpisodeId()
  @IsString()
  episode_id!: string;
}

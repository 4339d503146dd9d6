import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { EPISODE_ID_PATTERN, MatchesEpisodeId } from './episode-id';

export class GraderRequestDto {
  @ApiProperty({ pattern: EPISODE_ID_PATTERN.source })
  @MatchesEpisodeId()
  @IsString()
  episode_id!: string;
}

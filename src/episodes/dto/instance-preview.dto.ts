import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { QueryNumber } from '../../common/field-rules';
import { DIFFICULTIES, type Difficulty } from '../../engine/vocabulary';
import { ActiveTicketDto, ObservationDto } from './observation.dto';
import { MAX_SEED } from './reset-request.dto';

export class InstancePreviewParamsDto {
  @ApiProperty({ description: 'A task with a family (GET /tasks lists them; a task without one has only its canonical instance).' })
  @IsString()
  task_id!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_SEED, description: 'The seed to draw the instance from; its split follows the split rule (GET /tasks, family.split_rule).' })
  @Max(MAX_SEED)
  @Min(0)
  @IsInt({ message: `seed must be an integer from 0 to ${MAX_SEED}` })
  @QueryNumber()
  seed!: number;
}

/**
 * One drawn instance as an agent meets it, without playing it: what reset shows, and each ticket as opening it
 * shows. Never the answer key: nothing here is more than an agent reading every ticket would see.
 */
export class InstancePreviewDto {
  task_id!: string;
  seed!: number;
  @ApiProperty({ enum: ['train', 'test'], description: 'The seed\'s split. Test-split instances are previewed for reader keys, the admin key and the open-mode user only; the private test split never.' })
  split!: 'train' | 'test';
  /** The generator version that drew it (the one new episodes are drawn with). */
  generator_version!: string;
  title!: string;
  @ApiProperty({ enum: DIFFICULTIES, enumName: 'Difficulty' })
  difficulty!: Difficulty;
  /** The step budget of this instance. */
  max_steps!: number;
  @ApiProperty({ type: () => ObservationDto, description: 'The observation reset gives (its score null: nothing has been done).' })
  observation!: ObservationDto;
  @ApiProperty({ type: () => [ActiveTicketDto], description: 'Every ticket of the inbox, in inbox order, as open_ticket shows it.' })
  tickets!: ActiveTicketDto[];
}

import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined } from 'class-validator';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { STEP_BATCH_CEILING } from '../../config/app-config';
import { StepResponseDto } from './episode-responses.dto';
import { StepRequestDto } from './step-request.dto';


export class StepBatchRequestDto {
  @ApiProperty({
    type: () => [StepRequestDto],
    minItems: 1,
    maxItems: STEP_BATCH_CEILING,
    description:
      'The steps, each exactly a `POST /step` body. Items of one episode are applied in the order given; items of ' +
      'different episodes are applied together. Each item is validated and answered on its own: a bad item fails only ' +
      'itself (its result has status 422 naming `items.<i>.<field>`). At most STEP_BATCH_MAX_ITEMS items (256 unless ' +
      'the operator lowered it).',
    'x-item-results': true,
  } as never)
  // Only the envelope is validated here; each item is validated on its own (StepBatch), so one cannot fail the rest.
  @ArrayMaxSize(STEP_BATCH_CEILING)
  @ArrayMinSize(1)
  @IsArray()
  @IsDefined()
  items!: unknown[];
}

export class StepBatchResultDto {
  @ApiProperty({ type: 'integer', description: 'What `POST /step` would have answered for this item: 200, or the status of its error.' })
  status!: number;
  @ApiProperty({ type: () => StepResponseDto, required: false, description: 'With status 200: the step\'s response, as `POST /step` gives it.' })
  result?: StepResponseDto;
  @ApiProperty({ type: () => ErrorBodyDto, required: false, description: 'Otherwise: the error body `POST /step` would have answered.' })
  error?: ErrorBodyDto;
}

export class StepBatchResponseDto {
  @ApiProperty({ type: () => [StepBatchResultDto], description: 'One result per item, in the order of the items.' })
  results!: StepBatchResultDto[];
}

import { ApiProperty } from '@nestjs/swagger';

export const REPLY_DETAIL_REASONS = [
  'not_stated',
  'negated',
  'hypothetical',
  'conflicting_value',
  'not_a_sentence',
  'other_language',
  'quoted_policy',
  'contradicted',
] as const;

/** One detail the customer must be told, as the episode's grader judged the replies on the ticket. */
export class ReplyDetailGradeDto {
  /** The detail's id in the task (e.g. refund_amount) once the episode has ended; while it runs, its place (detail_1, …). */
  id!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What the detail is, value included: given once the episode has ended (null while it runs, so the grade never gives the answer away).',
  })
  description!: string | null;
  covered!: boolean;
  @ApiProperty({
    // Inline (no enumName): a nullable $ref would have no type beside it.
    type: String,
    enum: REPLY_DETAIL_REASONS,
    nullable: true,
    description:
      'Why it is not covered: not_stated; negated (said inside a negation); hypothetical (conditional, hedged or a question); ' +
      'conflicting_value (another value for the same slot); not_a_sentence (a keyword list, not a message to the customer); ' +
      'other_language; quoted_policy (knowledge-base text pasted); contradicted (grader version 1). Null when covered, and while the episode runs.',
  })
  reason!: (typeof REPLY_DETAIL_REASONS)[number] | null;
  @ApiProperty({ type: String, nullable: true, description: 'The sentence of a reply that covered the detail, or that explains the miss (grader version 2; a miss\'s only once the episode has ended).' })
  sentence!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The step at which that reply was sent.' })
  reply_step!: number | null;
}

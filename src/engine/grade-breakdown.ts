/*
 * What a grade says, whichever grader version made it: the shape stored with every step, shown by /grader and
 * read by the score columns and the DTOs. A version decides the values (weights, penalties, reasons); the shape
 * is shared, so a new version may add a kind or a reason, never take one away.
 */

/** The scored components, in the order a breakdown lists them (each is a score column of the episode). */
export const COMPONENT_NAMES = ['opened_target', 'policy_consulted', 'priority', 'routing', 'reply_coverage', 'resolution'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** A version's reward weights in milli-points; they sum to exactly 1000, so a perfect episode scores 1.0. */
export type ComponentWeights = Readonly<Record<ComponentName, number>>;

export interface ComponentGrade {
  name: ComponentName;
  weight_milli: number;
  earned_milli: number;
  why: string;
}

/** Why a required detail is not covered, in any version (version 1: not_stated, contradicted; version 2: the others and not_stated). */
export type ReplyMissReason =
  | 'not_stated'
  | 'negated'
  | 'hypothetical'
  | 'conflicting_value'
  | 'not_a_sentence'
  | 'other_language'
  | 'quoted_policy'
  | 'contradicted';

/** How one required detail stands, with the agent's own sentence that covered it or explains the miss. */
export interface ReplyDetailVerdict {
  id: string;
  description: string;
  covered: boolean;
  /** Why it is not covered. */
  reason: ReplyMissReason | null;
  /** The sentence of a reply that covered the detail, or that negated, hedged or contradicted it. */
  sentence: string | null;
  /** The step of that reply. */
  reply_step: number | null;
}

export const PENALTY_KINDS = ['forbidden_statement', 'disclosure', 'internal_text', 'collateral_action'] as const;
export type PenaltyKind = (typeof PENALTY_KINDS)[number];

export interface PenaltyGrade {
  id: string;
  kind: PenaltyKind;
  penalty_milli: number;
  /** What was done, in words that name the act, not the answer. */
  reason: string;
  step: number;
  ticket_id: string;
  /** The sentence of the reply that was penalised, for a statement. */
  sentence: string | null;
}

export interface GradeBreakdown {
  score_milli: number;
  /** The grader version that made it (src/engine/graders). */
  grader_version: number;
  components: ComponentGrade[];
  /** Each required reply detail: covered by which sentence, or why not. */
  reply_details: ReplyDetailVerdict[];
  /** What was taken off (grader version 2 on): forbidden statements and collateral acts. */
  penalties: PenaltyGrade[];
}

import { z } from 'zod';
import { hasAtMostDecimals } from './decimals';
import {
  CUSTOMER_TIERS,
  DIFFICULTIES,
  LIMITS,
  PRIORITIES,
  RESOLUTION_CODES,
  RESOLUTIONS_ALLOWING_AMOUNT,
  RESOLUTIONS_REQUIRING_AMOUNT,
  TEAMS,
  TICKET_STATUSES,
} from './vocabulary';
import { replyClaimSchema } from './graders/v2/claims/claim.schema';
import { lexiconSchema } from './graders/v3/claims/lexicon';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"');
const text = z.string().trim().min(1, 'must not be empty');
const phrasings = z.array(text).min(1, 'must list at least one phrasing');

const customerSchema = z.strictObject({
  name: text,
  tier: z.enum(CUSTOMER_TIERS),
  account: text,
});

const eventSchema = z.strictObject({
  at: z.iso.datetime({ message: 'must be an ISO-8601 UTC timestamp' }),
  kind: text,
  detail: text,
});

const ticketSchema = z.strictObject({
  id,
  customer: customerSchema,
  subject: text,
  body: text,
  contract_notes: z.array(text),
  recent_events: z.array(eventSchema),
  priority: z.enum(PRIORITIES),
  team: z.enum(TEAMS).nullable(),
  status: z.enum(TICKET_STATUSES),
});

const articleSchema = z.strictObject({ id, title: text, body: text });

/**
 * A reply detail as the first grader (version 1) judged it: phrase lists. Only task versions stored by earlier
 * releases carry these; their episodes are still verified with that grader. New task files declare claims.
 */
const phraseListDetailSchema = z.strictObject({
  id,
  description: text,
  accepted: phrasings,
  contradictions: z.array(text),
});

/** Why each answer is right, kept next to the key so a reviewer can check it against the content. */
const justificationSchema = z.strictObject({
  priority: text,
  team: text,
  resolution: text,
});

/**
 * Something the policy forbids telling the customer (grader version 2): a request for what must never be asked
 * ("your current password", "the card's CVV"), or a statement judged like a reply claim, penalised when a reply
 * on any ticket states it plainly ("we've sent you a password reset link", "we've refunded both charges").
 */
const forbiddenRequestSchema = z.strictObject({
  id,
  description: text,
  kind: z.literal('request'),
  /** What must not be asked for ("password", "card number"). */
  objects: z.array(text).min(1),
});
const forbiddenStatementSchema = z.union([forbiddenRequestSchema, replyClaimSchema]);

const answerKeySchema = z.strictObject({
  target_ticket_id: id,
  required_article_ids: z.array(id).min(1),
  priority: z.enum(PRIORITIES),
  team: z.enum(TEAMS),
  resolution: z.strictObject({
    code: z.enum(RESOLUTION_CODES),
    // Cents, decided on the number as written: zod's multipleOf(0.01) is a float test with a tolerance, which
    // takes 5e-324 and 0.30000000000000004 for whole cents.
    amount: z
      .number()
      .nonnegative()
      .refine((value) => hasAtMostDecimals(value, LIMITS.amountDecimals), `must have at most ${LIMITS.amountDecimals} decimals`)
      .optional(),
  }),
  /** What the customer must be told, as typed claims (grader version 2). */
  reply_claims: z.array(replyClaimSchema).min(1).optional(),
  /** Phrase lists (grader version 1): task versions from earlier releases only. */
  reply_details: z.array(phraseListDetailSchema).min(1).optional(),
  /**
   * What the policy forbids telling the customer, penalised in any reply (grader version 2). Entries sharing an id
   * are ways of saying one thing, penalised once.
   */
  forbidden: z.array(forbiddenStatementSchema).optional(),
  /**
   * Forbidden statements that are fine beside a reply detail (by id): "do not open a carrier trace first" allows a
   * trace opened beside the replacement the reply announces.
   */
  forbidden_unless: z.record(id, z.array(id).min(1)).optional(),
  /** Tickets that need no action: changing or replying on them is collateral (default: every ticket but the target). */
  no_action_ticket_ids: z.array(id).optional(),
  /**
   * The words of this task's domain the reply grader needs (grader version 3, which holds none of its own):
   * src/engine/graders/v3/claims/lexicon.ts. Absent from every task written for versions 1 and 2.
   */
  lexicon: lexiconSchema.optional(),
  justification: justificationSchema,
});

export const taskSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'must be snake_case, 3-64 characters'),
    difficulty: z.enum(DIFFICULTIES),
    title: text,
    instruction: text,
    /**
     * The case's "now" (ISO-8601 with offset): the time the agent works the ticket. Relative dates in replies
     * ("tomorrow", "Friday") are read against it. Required with reply claims.
     */
    clock: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time with an offset' }).optional(),
    max_steps: z.number().int().min(3).max(100),
    inbox: z.array(ticketSchema).min(3, 'needs the target and at least two distractors'),
    knowledge_base: z.array(articleSchema).min(3),
    answer_key: answerKeySchema,
  })
  .superRefine((task, ctx) => {
    const ticketIds = task.inbox.map((t) => t.id);
    const articleIds = task.knowledge_base.map((a) => a.id);
    duplicates(ticketIds).forEach((dup) =>
      ctx.addIssue({ code: 'custom', path: ['inbox'], message: `ticket id "${dup}" appears twice` }),
    );
    duplicates(articleIds).forEach((dup) =>
      ctx.addIssue({ code: 'custom', path: ['knowledge_base'], message: `article id "${dup}" appears twice` }),
    );
    const key = task.answer_key;
    if (!ticketIds.includes(key.target_ticket_id)) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer_key', 'target_ticket_id'],
        message: `"${key.target_ticket_id}" is not a ticket in the inbox`,
      });
    }
    key.required_article_ids.forEach((articleId, i) => {
      if (!articleIds.includes(articleId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['answer_key', 'required_article_ids', i],
          message: `"${articleId}" is not an article in the knowledge base`,
        });
      }
    });
    if (key.required_article_ids.length >= articleIds.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['knowledge_base'],
        message: 'needs more articles than the task requires (near-misses)',
      });
    }
    const { code, amount } = key.resolution;
    if (RESOLUTIONS_REQUIRING_AMOUNT.includes(code) && amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['answer_key', 'resolution', 'amount'], message: `${code} needs an amount` });
    }
    if (!RESOLUTIONS_ALLOWING_AMOUNT.includes(code) && amount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['answer_key', 'resolution', 'amount'], message: `${code} takes no amount` });
    }
    if ((key.reply_claims === undefined) === (key.reply_details === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['answer_key'], message: 'declares its reply details as reply_claims (reply_details are phrase lists from earlier releases)' });
    }
    if (key.reply_claims !== undefined && task.clock === undefined) {
      ctx.addIssue({ code: 'custom', path: ['clock'], message: 'is required with reply claims (relative dates are read against it)' });
    }
    (key.no_action_ticket_ids ?? []).forEach((ticketId, i) => {
      if (!ticketIds.includes(ticketId) || ticketId === key.target_ticket_id) {
        ctx.addIssue({ code: 'custom', path: ['answer_key', 'no_action_ticket_ids', i], message: `"${ticketId}" is not a ticket of the inbox other than the target` });
      }
    });
    for (const [forbiddenId, detailIds] of Object.entries(key.forbidden_unless ?? {})) {
      if (!(key.forbidden ?? []).some((f) => f.id === forbiddenId)) {
        ctx.addIssue({ code: 'custom', path: ['answer_key', 'forbidden_unless', forbiddenId], message: `"${forbiddenId}" is not a forbidden statement of the task` });
      }
      for (const detailId of detailIds.filter((d) => !(key.reply_claims ?? []).some((c) => c.id === d))) {
        ctx.addIssue({ code: 'custom', path: ['answer_key', 'forbidden_unless', forbiddenId], message: `"${detailId}" is not a reply claim of the task` });
      }
    }
    const detailIds = [...(key.reply_claims ?? []), ...(key.reply_details ?? [])].map((d) => d.id);
    duplicates(detailIds).forEach((dup) =>
      ctx.addIssue({ code: 'custom', path: ['answer_key', 'reply_claims'], message: `detail id "${dup}" appears twice` }),
    );
  });

export type Task = z.infer<typeof taskSchema>;
export type Ticket = Task['inbox'][number];
export type Article = Task['knowledge_base'][number];
export type PhraseListDetail = NonNullable<Task['answer_key']['reply_details']>[number];
export type ForbiddenStatement = NonNullable<Task['answer_key']['forbidden']>[number];

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

/** Formats zod issues as `field: message` lines, naming the path inside the file. */
export function describeTaskIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(task)';
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

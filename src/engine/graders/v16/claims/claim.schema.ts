import { z } from 'zod';

/**
 * What a task says the customer must be told, as typed claims rather than phrase lists: the engine recognises
 * the many ways a value can be written, so a task declares the value once.
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"');
const text = z.string().trim().min(1, 'must not be empty');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export const DURATION_UNITS = ['minute', 'hour', 'day', 'business_day', 'week'] as const;

const moneyValue = z.strictObject({
  kind: z.literal('money'),
  amount: z.number().nonnegative().multipleOf(0.01),
  currency: z.enum(CURRENCIES),
});

const durationValue = z
  .strictObject({
    kind: z.literal('duration'),
    min: z.number().nonnegative(),
    max: z.number().nonnegative(),
    unit: z.enum(DURATION_UNITS),
  })
  .refine((d) => d.min <= d.max, { message: 'min must not exceed max' });

const dateValue = z.strictObject({ kind: z.literal('date'), date: isoDate });

/** A value a careless agent would give for the same slot; it may be of another kind (a duration for a date). */
const nearMiss = z.union([moneyValue, durationValue, dateValue]);

const common = {
  id,
  description: text,
  near_misses: z.array(nearMiss).optional(),
  /**
   * Words naming the event the detail belongs to ("refund", "replacement"). A reply that denies the event
   * ("no refund will be issued") contradicts the detail even if it never repeats the value.
   */
  about: z.array(text).optional(),
  /**
   * More words or phrases that say what a value is about ("settle", "back on your card", "arrives"). With `about`,
   * they are what a value needs in its sentence (or the one it carries on from) to count at all: a figure with
   * nothing saying what it is tells the customer nothing.
   */
  anchors: z.array(text).optional(),
  /**
   * Words naming other things a value of this kind is often said of ("credit" beside a refund; "ground",
   * "trace" beside a delivery date). A value in a sentence that names one of them and none of `about` is about
   * that other thing: it neither states the claim nor competes with it ("we've applied an account credit of
   * $348", "standard ground takes 3-5 business days").
   */
  not_about: z.array(text).optional(),
};

const moneyClaim = moneyValue.extend(common);
const durationClaim = z
  .strictObject({ ...durationValue.def.shape, ...common })
  .refine((d) => d.min <= d.max, { message: 'min must not exceed max' });
const dateClaim = dateValue.extend({
  ...common,
  /**
   * A deadline's latest time of day ("12:00" for "before 12:00"): a later time said with the date ("by 18:00",
   * "in the afternoon") makes it another commitment, a conflicting value.
   */
  by_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM').optional(),
});

const actionClaim = z.strictObject({
  kind: z.literal('action'),
  /** Base forms ("revoke", "sign out"); inflections, passives and nominalisations are derived. */
  verbs: z.array(text).min(1),
  /** Nouns the action applies to ("api key", "sync-prod-2"); plurals are derived. */
  objects: z.array(text).min(1),
  /** Phrases of which one must stand near the action ("video", "72 hours"); a disjunction of them conflicts. */
  qualifiers: z.array(text).optional(),
  /**
   * Advice the customer must be given (check the spam folder, review active sessions): told as an instruction or a
   * possibility ("Please check your spam folder", "You can review your sessions", "we recommend checking"), which
   * for an action we report would be a to-do or a hedge. A negated one ("don't check") still contradicts.
   */
  advice: z.boolean().optional(),
  ...common,
});

const optionClaim = z
  .strictObject({
    kind: z.literal('option'),
    value: text,
    /** Each named option with the phrases that say it; the other options are the rivals. */
    options: z.record(z.string(), z.array(text).min(1)),
    ...common,
  })
  .refine((o) => o.value in o.options, { message: 'value must name one of the options' });

export const replyClaimSchema = z.union([moneyClaim, durationClaim, dateClaim, actionClaim, optionClaim]);

export type MoneyValue = z.infer<typeof moneyValue>;
export type DurationValue = z.infer<typeof durationValue>;
export type DateValue = z.infer<typeof dateValue>;
export type NearMiss = z.infer<typeof nearMiss>;
export type ReplyClaim = z.infer<typeof replyClaimSchema>;
export type MoneyClaim = Extract<ReplyClaim, { kind: 'money' }>;
export type DurationClaim = Extract<ReplyClaim, { kind: 'duration' }>;
export type DateClaim = Extract<ReplyClaim, { kind: 'date' }>;
export type ActionClaim = Extract<ReplyClaim, { kind: 'action' }>;
export type OptionClaim = Extract<ReplyClaim, { kind: 'option' }>;
export type Currency = (typeof CURRENCIES)[number];
export type DurationUnit = (typeof DURATION_UNITS)[number];

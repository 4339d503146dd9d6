import type { Currency, DurationUnit } from './claim.schema';
import { wordTable } from './word-table';

/** A value the reply states, located by token positions in its sentence. Plain data: stored with the step. */
export type MentionValue =
  | { kind: 'money'; amount: number; currency: Currency }
  /** `bound: 'up_to'` for "within 7 days", "up to 7 days": a ceiling rather than the window itself. */
  | { kind: 'duration'; min: number; max: number; unit: DurationUnit; bound?: 'up_to' }
  | { kind: 'date'; date: string };

export interface ValueMention {
  value: MentionValue;
  /** Index of the sentence in the analysis. */
  sentence: number;
  /** Token span [start, end) in that sentence. */
  start: number;
  end: number;
}

export type Span = Omit<ValueMention, 'sentence'>;

/** Two values are the same when a customer would read them as the same fact. */
export function sameValue(a: MentionValue, b: MentionValue): boolean {
  if (a.kind === 'money' && b.kind === 'money') return a.currency === b.currency && cents(a.amount) === cents(b.amount);
  if (a.kind === 'duration' && b.kind === 'duration') {
    if (a.unit === b.unit) return a.min === b.min && a.max === b.max;
    // "one hour" is "60 minutes", "48 hours" is "2 days", "a week" is "7 days"; business days convert to nothing.
    const [ma, mb] = [MINUTES[a.unit], MINUTES[b.unit]];
    return ma !== undefined && mb !== undefined && a.min * ma === b.min * mb && a.max * ma === b.max * mb;
  }
  if (a.kind === 'date' && b.kind === 'date') return a.date === b.date;
  return false;
}

const MINUTES: Partial<Record<string, number>> = wordTable({ minute: 1, hour: 60, day: 1440, week: 10080 });

function cents(amount: number): number {
  return Math.round(amount * 100);
}

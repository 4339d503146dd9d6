import { findActions } from './actions';
import type { AnalysedSentence, ReplyAnalysis, SentenceStatus } from './analyse';
import type { ReplyClaim } from './claim.schema';
import { sameValue, type MentionValue, type ValueMention } from './mentions';
import { findOptions } from './options';
import { isHedge } from './polarity';

/**
 * Judging declared claims against the analyses of every reply sent on the ticket. A claim is covered when some
 * sentence addressed to the customer asserts it and nothing contradicts it:
 *   - a negated, hypothetical, retracted or other-customer statement of the value contradicts it, in any reply;
 *   - one value per slot: a rival value offered as an alternative to the declared one ("$348 or $696",
 *     "within 3, 5-7 or 10 business days", "on the 27th or 30th", "between 27 November and 2 December") is a
 *     conflict, and so is a declared near miss asserted plainly anywhere. A different figure for a different
 *     purpose is no conflict: a rival that is not a near miss and not coordinated with the value ("the $29 seat
 *     charge was correct"), or a near miss set aside by a contrast ("instead of the usual $50 goodwill credit",
 *     "longer than the 3 business days you may have seen"), negated ("no point waiting 5 business days for a
 *     trace") or said of the original item ("the original went by standard ground");
 *   - a denial of the claim's event ("no refund will be issued") contradicts it.
 * Pasted policy, other languages and keyword fragments never cover, and their reason is reported when nothing
 * else explains the miss.
 */

export type MissReason =
  | 'not_stated'
  | 'negated'
  | 'hypothetical'
  | 'conflicting_value'
  | 'not_a_sentence'
  | 'other_language'
  | 'quoted_policy';

export interface ClaimVerdict {
  id: string;
  description: string;
  covered: boolean;
  /** Why it is not covered. */
  reason?: MissReason;
  /** The reply (index in the analyses given) and sentence that covered it, or that explains the miss. */
  reply?: number;
  sentence?: string;
}

interface Evidence {
  reply: number;
  sentence: number;
  status: SentenceStatus;
  mood: string;
}

const USABLE = new Set<SentenceStatus>(['prose', 'telegraphic']);

/** The stance of a span: a denial anywhere in it wins; a contrast counts only where the span begins. */
function spanMood(moods: string, start: number, end: number): string {
  const part = moods.slice(start, Math.max(end, start + 1));
  for (const c of ['r', 'o', 'n', 'h']) if (part.includes(c)) return c;
  return part[0] === 'c' ? 'c' : 'a';
}

export function judgeClaims(claims: ReplyClaim[], analyses: ReplyAnalysis[]): ClaimVerdict[] {
  return claims.map((claim) => judgeOne(claim, analyses));
}

function judgeOne(claim: ReplyClaim, analyses: ReplyAnalysis[]): ClaimVerdict {
  const matches: Evidence[] = [];
  const conflicts: Evidence[] = [];

  analyses.forEach((analysis, reply) => {
    const sentences = analysis.sentences;
    if (claim.kind === 'action') {
      for (const hit of findActions(claim, sentences)) {
        const e = { reply, sentence: hit.sentence, status: sentences[hit.sentence].status, mood: hit.mood };
        matches.push(e);
        if (hit.disjunct && (hit.mood === 'a' || hit.mood === 'h')) conflicts.push({ ...e, mood: 'a' });
      }
      return;
    }
    const spans = claim.kind === 'option' ? optionSpans(claim, sentences) : valueSpans(claim, analysis.mentions);
    for (const sp of spans) {
      const s = sentences[sp.sentence];
      const e = { reply, sentence: sp.sentence, status: s.status, mood: spanMood(s.moods, sp.start, sp.end) };
      if (sp.match) {
        matches.push(e);
        continue;
      }
      const coordinated = spans.some((other) => other.match && other.sentence === sp.sentence && coordinatedWith(s.tokens, sp, other));
      if ((sp.nearMiss && e.mood === 'a') || (coordinated && (e.mood === 'a' || e.mood === 'h'))) conflicts.push(e);
    }
  });

  const usable = (e: Evidence) => USABLE.has(e.status);
  const sentenceOf = (e: Evidence) => analyses[e.reply].sentences[e.sentence].text;
  const verdict = (covered: boolean, e: Evidence | undefined, reason?: MissReason): ClaimVerdict => ({
    id: claim.id,
    description: claim.description,
    covered,
    ...(reason ? { reason } : {}),
    ...(e ? { reply: e.reply, sentence: sentenceOf(e) } : {}),
  });

  const spoken = matches.filter(usable);
  const negated = spoken.find((e) => e.mood === 'n' || e.mood === 'o' || e.mood === 'r');
  if (negated) return verdict(false, negated, 'negated');
  const hypothetical = spoken.find((e) => e.mood === 'h');
  if (hypothetical) return verdict(false, hypothetical, 'hypothetical');
  const conflict = conflicts.find(usable);
  if (conflict) return verdict(false, conflict, 'conflicting_value');
  const denial = claim.about ? findDenial(claim.about, analyses) : undefined;
  if (denial) return verdict(false, denial, denial.mood === 'n' ? 'negated' : 'hypothetical');
  const asserted = spoken.find((e) => e.mood === 'a');
  if (asserted) return verdict(true, asserted);
  for (const reason of ['quoted_policy', 'other_language', 'not_a_sentence'] as const) {
    const e = matches.find((m) => m.status === reason);
    if (e) return verdict(false, e, reason);
  }
  return verdict(false, undefined, 'not_stated');
}

interface ClaimSpan {
  sentence: number;
  start: number;
  end: number;
  match: boolean;
  nearMiss: boolean;
}

function valueSpans(claim: Extract<ReplyClaim, { kind: 'money' | 'duration' | 'date' }>, mentions: ValueMention[]): ClaimSpan[] {
  const target = claimValue(claim);
  const nearMisses = claim.near_misses ?? [];
  const out: ClaimSpan[] = [];
  for (const m of mentions) {
    const base = { sentence: m.sentence, start: m.start, end: m.end };
    if (sameValue(target, m.value)) out.push({ ...base, match: true, nearMiss: false });
    else if (nearMisses.some((n) => sameValue(n, m.value))) out.push({ ...base, match: false, nearMiss: true });
    else if (m.value.kind === target.kind && !compatible(target, m.value)) out.push({ ...base, match: false, nearMiss: false });
  }
  return out;
}

function claimValue(claim: Extract<ReplyClaim, { kind: 'money' | 'duration' | 'date' }>): MentionValue {
  if (claim.kind === 'money') return { kind: 'money', amount: claim.amount, currency: claim.currency };
  if (claim.kind === 'duration') return { kind: 'duration', min: claim.min, max: claim.max, unit: claim.unit };
  return { kind: 'date', date: claim.date };
}

/**
 * Values that do not compete with the declared one: a ceiling at its upper end ("up to 7 business days" for
 * 5-7) and the same window in plain days.
 */
function compatible(target: MentionValue, other: MentionValue): boolean {
  if (target.kind !== 'duration' || other.kind !== 'duration') return false;
  if (other.bound === 'up_to' && other.max === target.max && other.unit === target.unit) return true;
  return other.unit === 'day' && target.unit === 'business_day' && other.min === target.min && other.max === target.max;
}

function optionSpans(claim: Extract<ReplyClaim, { kind: 'option' }>, sentences: AnalysedSentence[]): ClaimSpan[] {
  return findOptions(claim, sentences).map((h) => ({
    sentence: h.sentence,
    start: h.start,
    end: h.end,
    match: h.option === claim.value,
    nearMiss: h.option !== claim.value,
  }));
}

/** Alternatives in one breath: "or" / "either" between them, or "between X and Y". */
function coordinatedWith(tokens: string[], a: ClaimSpan, b: ClaimSpan): boolean {
  const [first, second] = a.start < b.start ? [a, b] : [b, a];
  const between = tokens.slice(first.end, second.start);
  if (between.some((t) => t === '.' || t === ';' || t === '?' || t === '!')) return false;
  if (between.includes('or') || tokens[first.start - 1] === 'either') return true;
  return tokens[first.start - 1] === 'between' && between.includes('and');
}

/**
 * "No refund will be issued", "the replacement has not been booked": a negator next to a word naming the
 * event denies it; "to consider a $348 refund", "we might issue a refund" leave it undecided.
 */
function findDenial(about: string[], analyses: ReplyAnalysis[]): Evidence | undefined {
  const words = new Set(about.map((w) => w.toLowerCase()));
  for (const [reply, a] of analyses.entries()) {
    for (const [si, s] of a.sentences.entries()) {
      if (!USABLE.has(s.status)) continue;
      for (const [j, t] of s.tokens.entries()) {
        if (!words.has(t)) continue;
        if (s.moods[j] === 'h' && s.tokens.slice(Math.max(0, j - 4), j).some(isHedge)) return { reply, sentence: si, status: s.status, mood: 'h' };
        if (s.moods[j] !== 'n') continue;
        const near = s.negators.some((k) => s.clauses[k] === s.clauses[j] && ((k < j && j - k <= 3) || (k > j && k - j <= 5)));
        if (near) return { reply, sentence: si, status: s.status, mood: 'n' };
      }
    }
  }
  return undefined;
}

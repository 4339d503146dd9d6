import { findActions } from './actions';
import type { AnalysedSentence, ReplyAnalysis, SentenceStatus } from './analyse';
import { valuesOnly } from './analyse';
import type { ReplyClaim } from './claim.schema';
import { NO_LEXICON, type Lexicon } from './lexicon';
import { REFUND_DESTINATIONS } from '../support-vocabulary';
import { sameValue, type MentionValue, type ValueMention } from './mentions';
import { findOptions } from './options';
import { isLabelLine } from './prose';
import { AUXILIARIES } from './english';
import { isHedge, withdrawsEarlierReplies } from './polarity';
import { wordTable } from './word-table';

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
  // Read in place, in the order of strength r, o, n, h (a span's moods were sliced and searched four times).
  let strongest = 4;
  for (let k = start; k < Math.max(end, start + 1) && k < moods.length; k++) {
    const rank = STRENGTH.indexOf(moods[k]);
    if (rank >= 0 && rank < strongest) strongest = rank;
  }
  if (strongest < 4) return STRENGTH[strongest];
  return moods[start] === 'c' ? 'c' : 'a';
}

const STRENGTH = 'ronh';

export function judgeClaims(claims: ReplyClaim[], analyses: ReplyAnalysis[], lexicon: Lexicon = NO_LEXICON): ClaimVerdict[] {
  if (claims.length === 0) return [];
  // A later reply that withdraws the earlier ones ("please disregard my previous email") retracts what they said.
  const withdrawnBefore = analyses.reduce((last, a, k) => (withdrawsEarlier(a, lexicon) ? k : last), -1);
  const keyAmounts = claims.flatMap((c) => (c.kind === 'money' ? [c.amount] : []));
  const verdicts = claims.map((claim) => judgeOne(claim, analyses, withdrawnBefore, lexicon, keyAmounts));
  const paths = menuPathsOf(claims);
  return verdicts.map((v, k) => timingOfUntoldAct(claims, verdicts, k) ?? adviceAtAnotherPlace(claims[k], v, paths) ?? v);
}

/** Whether a reply withdraws the ones before it: read once per reply (and lexicon), as every judgement asks. */
function withdrawsEarlier(analysis: ReplyAnalysis, lexicon: Lexicon): boolean {
  const known = withdrawing.get(analysis);
  if (known && known.lexicon === lexicon) return known.withdraws;
  const withdraws = analysis.sentences.some((s) => withdrawsEarlierReplies(s.tokens, lexicon));
  withdrawing.set(analysis, { lexicon, withdraws });
  return withdraws;
}

const withdrawing = new WeakMap<ReplyAnalysis, { lexicon: Lexicon; withdraws: boolean }>();

/** The menu paths the key names ("settings>security"), lower-cased, with no space around the marks. */
function menuPathsOf(claims: ReplyClaim[]): string[] {
  return claims.flatMap((c) => (c.kind === 'action' ? (c.qualifiers ?? []) : [])).filter((q) => q.includes('>')).flatMap(pathsIn);
}

/**
 * The menu paths a text names, "Settings > Security > Sessions" as "settings>security>sessions": runs of letters joined
 * by ">" (spaces around it allowed). One pass over the text, no pattern that could read a run twice.
 */
function pathsIn(text: string): string[] {
  const paths: string[] = [];
  const lower = text.toLowerCase();
  let word = '';
  let path: string[] = [];
  let joined = false;
  const close = () => {
    if (path.length > 1) paths.push(path.join('>'));
    path = [];
  };
  for (const ch of lower + ' ') {
    if (/\p{L}/u.test(ch)) {
      if (!joined && path.length > 0 && word === '') close();
      word += ch;
      continue;
    }
    if (word) {
      path.push(word);
      word = '';
      joined = false;
    }
    if (ch === '>') joined = path.length > 0;
    else if (!/\s/.test(ch)) {
      close();
      joined = false;
    }
  }
  close();
  return paths;
}

/**
 * "Your sessions are listed under Settings > API, and each has a Revoke button": advice given at a menu path the key
 * does not name (where the key names one) is advice to look in the wrong place, a conflicting value.
 */
function adviceAtAnotherPlace(claim: ReplyClaim, verdict: ClaimVerdict, paths: string[]): ClaimVerdict | undefined {
  if (!verdict.covered || paths.length === 0 || claim.kind !== 'action' || claim.advice !== true || claim.qualifiers?.length) return undefined;
  const told = pathsIn(verdict.sentence ?? '');
  if (told.length === 0 || told.some((path) => paths.some((p) => path.startsWith(p) || p.startsWith(path)))) return undefined;
  return { ...verdict, covered: false, reason: 'conflicting_value' };
}

/**
 * "It settles within 5-7 business days" beside a refund of the wrong amount, or none: how long an act takes is
 * told only with the act. A duration about what an amount claim is about (the same `about` words: the refund's
 * settlement window, the credit's), or about the object of an act (a trace's result window, the trace opened), is
 * not covered while no such amount or act is, and the miss is theirs.
 */
function timingOfUntoldAct(claims: ReplyClaim[], verdicts: ClaimVerdict[], k: number): ClaimVerdict | undefined {
  const claim = claims[k];
  if (claim.kind !== 'duration' || !verdicts[k].covered || !claim.about) return undefined;
  const about = new Set(claim.about);
  const actOf = (c: ReplyClaim) => (c.kind === 'money' && (c.about ?? []).some((w) => about.has(w))) || (c.kind === 'action' && c.advice !== true && c.objects.some((o) => about.has(o)));
  const acts = claims.flatMap((c, j) => (actOf(c) ? [verdicts[j]] : []));
  if (acts.length === 0 || acts.some((a) => a.covered)) return undefined;
  const { reason, reply, sentence } = acts[0];
  return { id: claim.id, description: claim.description, covered: false, reason: reason ?? 'not_stated', ...(reply === undefined ? {} : { reply, sentence }) };
}

function judgeOne(claim: ReplyClaim, analyses: ReplyAnalysis[], withdrawnBefore: number, lexicon: Lexicon, keyAmounts: number[] = []): ClaimVerdict {
  const matches: Evidence[] = [];
  const conflicts: Evidence[] = [];
  const namedSets: { reply: number; names: string[]; sentences: AnalysedSentence[] }[] = [];
  const earlierValues: Evidence[] = [];
  // Whether a sentence names what the claim is about, once per sentence however many values it holds.
  const named = new WeakMap<string[], boolean>();
  const anchorWords = ownWords(claim);
  const creditClaim = (claim.kind === 'money' || claim.kind === 'duration') && (claim.about ?? []).includes('credit');
  const namesOf = (tokens: string[]) => {
    let names = named.get(tokens);
    if (names === undefined) named.set(tokens, (names = anchorWords.some((word) => containsWords(tokens, word, undefined, true)) || (creditClaim && addedToAccount(tokens))));
    return names;
  };

  analyses.forEach((analysis, reply) => {
    const sentences = analysis.sentences;
    if (claim.kind === 'action') {
      const named = namedList(claim);
      // (Asked once per sentence: a sentence of many acts on keys holds many hits.)
      const anotherNamed = new Map<number, boolean>();
      for (const hit of findActions(claim, sentences, lexicon)) {
        // ("a reset link was already sent to you on 14 April": done already, on a day before this ticket's, is an act of an
        // earlier occasion.)
        const mood = hit.mood === 'a' && claim.advice !== true && alreadyOnAnEarlierDay(analysis, hit.sentence) ? 'c' : hit.mood;
        const e = { reply, sentence: hit.sentence, status: sentences[hit.sentence].status, mood };
        matches.push(e);
        if (hit.disjunct && (hit.mood === 'a' || hit.mood === 'h')) conflicts.push({ ...e, mood: 'a' });
        // "we've revoked the keys created in the last 72 hours, grafana-read and ops-svc-5": a list of names acted on
        // that holds one the claim does not name is the wrong list.
        if (named && hit.mood === 'a') {
          let another = anotherNamed.get(hit.sentence);
          if (another === undefined) anotherNamed.set(hit.sentence, (another = namesAnother(sentences[hit.sentence].tokens, named)));
          if (another) conflicts.push(e);
        }
      }
      if (named) namedSets.push({ reply, names: named, sentences });
      return;
    }
    const spans = (
      claim.kind === 'option'
        ? optionSpans(claim, sentences)
        : [...valueSpans(claim, analysis.mentions, sentences, lexicon), ...(claim.kind === 'duration' ? windowsAsDates(claim, analysis) : [])]
    ).filter(
      // A sentence that cannot tell anything keeps its spans, so the miss is reported for what it is.
      // ("picked up tomorrow and with you on Tuesday the 4th": a clause that names another event still tells the claim's
      // own value when the nearest marker before the value is the claim's.)
      (sp) =>
        !USABLE.has(sentences[sp.sentence].status) ||
        ((!aboutSomethingElse(claim, clauseOf(sentences[sp.sentence], sp.start), lexicon) || ownMarkerNearest(claim, sentences[sp.sentence].tokens, sp)) && anchored(claim, sentences, sp, namesOf, lexicon)),
    );
    // Each span is compared with the spans of its own sentence only: grouped once, not searched for in the whole reply.
    const bySentence = new Map<number, ClaimSpan[]>();
    for (const sp of spans) {
      const same = bySentence.get(sp.sentence);
      if (same) same.push(sp);
      else bySentence.set(sp.sentence, [sp]);
    }
    const listedIn = new Map<number, boolean>();
    const ownMatchIn = new Map<number, boolean>();
    const breakdownIn = new Map<number, boolean>();
    const anyMatch = spans.some((other) => other.match);
    for (const sp of spans) {
      const s = sentences[sp.sentence];
      const e = { reply, sentence: sp.sentence, status: s.status, mood: spanMood(s.moods, sp.start, sp.end) };
      // ("so you're owed $10,080 back", "$10,080.00 in total to be returned": what is owed is not what was refunded.)
      if (claim.kind === 'money' && owedFigure(s.tokens, sp.start, sp.end)) continue;
      // ("- Remaining $760.00: with the account team for approval, done within 1 business day": the word that doubts the
      // clause is the claim's own event, whose time this is.)
      if (sp.match && e.mood === 'h' && claim.kind === 'duration' && onlyDoubtIsTheEvent(claim, clauseOf(s, sp.start))) e.mood = 'a';
      if (sp.match) {
        // ("I've refunded the duplicate $1,092.00 to your Amex again today": a second refund, not the one the key tells.)
        if (claim.kind === 'money' && doneAgain(clauseOf(s, sp.start))) continue;
        // ("$1,250.00 of the duplicate $4,080.00 charge is refunded": the whole is not what was refunded.)
        if (claim.kind === 'money' && wholeOfPart(s.tokens, sp.start)) continue;
        // ("The duplicate of $2,400.00 is more than first-line support can refund directly": set against the limit.)
        if (claim.kind === 'money' && comparedWithLimit(s.tokens, sp.end)) continue;
        matches.push(e);
        continue;
      }
      const same = bySentence.get(sp.sentence)!;
      // "a credit of $60.00: the two $20.00 duplicates plus a $20.00 service credit", "$1,223.18 ($1,260.00 - $36.82)":
      // the parts of the claim's amount, said beside it or in the sentence after it, are no rival amounts.
      if (claim.kind === 'money') {
        let parts = breakdownIn.get(sp.sentence);
        if (parts === undefined) breakdownIn.set(sp.sentence, (parts = breaksDown(claim.amount, sentences, sp.sentence, same, bySentence)));
        if (parts) continue;
      }
      // "…, but the $32.00 seat add-on is correct and stays": a figure said to stand as it is, in a clause that does
      // not name the claim's event, is not refunded or credited.
      // ("The $3.84 on 9 April is your extra seat, charged pro rata, so it stays": said of it in the next clause.)
      if (claim.kind === 'money' && (standsAsItIs(claim, clauseOf(s, sp.start)) || (itStands(s.tokens) && !namesEvent(claim, s.tokens)))) continue;
      // ("The two additional collections (USD 570.00 each) have been refunded": a price of each, not a rival total.)
      if (claim.kind === 'money' && ['each', 'apiece'].includes(s.tokens[sp.end] ?? '')) continue;
      // ("…so two extra charges of $5,040.00 were taken - $10,080.00 in total to be returned": a figure its own clause
      // says is a charge, where another clause tells the refund, is the charge's.)
      if (claim.kind === 'money' && chargeClause(clauseOf(s, sp.start)) && !namesEvent(claim, clauseOf(s, sp.start))) continue;
      const coordinated = same.some((other) => other.match && coordinatedWith(s.tokens, sp, other));
      if (e.mood === 'a' && !anyMatch) earlierValues.push(e);
      // A rival option competes when it is given as the means ("by standard ground") or said of the claim's
      // event; "standard ground takes 3-5 days" only describes the rival.
      // ("I didn't want to lose time on a trace, so a replacement has been dispatched by express": a rival under a denial
      // just before it is set aside.)
      const competes =
        claim.kind !== 'option' ||
        (((givenAsMeans(s.tokens, sp.start) && !aboutTheOriginal(s.tokens, sp.start, lexicon)) || namesEvent(claim, clauseOf(s, sp.start))) && !deniedJustBefore(s, sp.start));
      // "which leaves 2 business days to spare": a margin, not the delivery window.
      if (s.tokens[sp.end] === 'to' && s.tokens[sp.end + 1] === 'spare') continue;
      // ("That gives you the weekend and Monday in hand before the stand build": days to spare, in a clause that says so.)
      if (claim.kind === 'date' && spareDays(clauseOf(s, sp.start))) continue;
      // "our account team will approve it within 3 business days, after which it is refunded": a window said of a
      // decision is the decision's, not a second value for the claim's.
      if (claim.kind === 'duration' && decidedWithin(s.tokens, sp.start)) continue;
      // Beside the claim's own date: "delivered by Monday 12 April (possibly from Thu 8 Apr)", "between Tuesday 13 and
      // Friday 16 October", "ahead of your venue dressing on 9 February", "standard ground takes 3 to 6 business days":
      // the range's first day, the customer's deadline and the service's transit time explain the date, they do not
      // rival it.
      if (claim.kind === 'date' && same.some((other) => other.match) && (rangeStart(s.tokens, sp.start) || deadlineAt(s.tokens, sp.start) || sp.isDuration)) continue;
      // "$2,000.00 of the duplicate $2,520.00": the whole a part is taken from (for a rival, or a forbidden whole).
      if (claim.kind === 'money' && wholeOfPart(s.tokens, sp.start)) continue;
      // "The duplicate of $2,400.00 is more than first-line support can refund, so we have refunded $1,250.00": a figure
      // compared with a limit is not what was refunded.
      if (claim.kind === 'money' && same.some((other) => other.match) && comparedWithLimit(s.tokens, sp.end)) continue;
      // "…before the stand build on Tuesday 18 May", "since they left Bristol on Wednesday": the customer's event and a
      // past reference point are other days, whichever sentence tells the claim's own.
      if (claim.kind === 'date' && (eventDeadlineAt(s.tokens, sp.start) || sinceAt(s.tokens, sp.start) || customerEventAt(s.tokens, sp.start))) continue;
      // ("If Thursday comes and goes without a delivery, give us a call first thing Friday": the day of a request to the
      // customer, in a clause that does not name the event.)
      if (claim.kind === 'date' && requestClause(clauseOf(s, sp.start)) && !namesEvent(claim, clauseOf(s, sp.start))) continue;
      // "the $250.00 credit your agreement provides (Amendment A2 raised it from $225)": the figure it replaced.
      if (claim.kind === 'money' && same.some((other) => other.match) && replacedFigure(s.tokens, sp.start)) continue;
      // "the courier collects it on Tuesday 27 April and delivers it on Wednesday 28 April": beside the claim's value,
      // a value whose nearest marker names something else (`not_about`) is that thing's, not a second value for the slot.
      // (Whether the sentence holds a matching value said of the claim's own event is asked once per sentence.)
      // ("- Replacement: dispatched via standard ground, collected Wed 7 Oct": a day whose nearest marker names another
      // event is that event's, wherever the claim's own day is told.)
      if (claim.kind === 'date' && saidOfSomethingElse(claim, s.tokens, sp)) continue;
      if (claim.kind !== 'option' && saidOfSomethingElse(claim, s.tokens, sp)) {
        let ownMatch = ownMatchIn.get(sp.sentence);
        if (ownMatch === undefined) ownMatchIn.set(sp.sentence, (ownMatch = same.some((other) => other.match && !saidOfSomethingElse(claim, s.tokens, other))));
        if (ownMatch) continue;
      }
      // "...; if the courier is full we'll use express shipping instead": an alternative held in reserve beside the value.
      // ("Standard ground would cut it too fine, so I've put it on our express courier": a rival weighed and set aside
      // before the value is no reserve.)
      // ("…on our express service (standard ground could take until Monday 19th - too late)": a rival set aside as too
      // late is no reserve either.)
      const reserve = e.mood === 'h' && !sp.match && same.some((other) => other.match && other.start < sp.start) && !(tooLateAfter(s.tokens, sp.end) && inBrackets(s.tokens, sp.start));
      // ("The tracking shows the parcel arriving at Peterborough on Tuesday evening": a day said of the first attempt, in a
      // sentence that does not name the replacement, is that attempt's.)
      if (claim.kind === 'date' && aboutTheOriginal(s.tokens, sp.start, lexicon) && !s.tokens.some((t) => lexicon.renewals.has(t))) continue;
      // ("…and delivers the next business day - Tuesday 4 May": a day restated at once as the claim's own is the same day,
      // counted from another, not a rival.)
      if (claim.kind === 'date' && same.some((other) => other.match && (other.start === sp.end || (other.start === sp.end + 1 && /^[-,:(]$/.test(s.tokens[sp.end]))))) continue;
      // ("…which could mean Friday the 20th (too late), so…": a day said to be too late is the rival's.)
      if (claim.kind === 'date' && tooLateAfter(s.tokens, sp.end)) continue;
      let listed = listedIn.get(sp.sentence);
      if (listed === undefined) listedIn.set(sp.sentence, (listed = inAList(s.tokens, same)));
      if ((sp.nearMiss && e.mood === 'a' && competes) || reserve || ((coordinated || listed) && (e.mood === 'a' || e.mood === 'h'))) conflicts.push(e);
    }
  });

  // One value per slot across replies too: a different value stated plainly in an earlier reply is the one the
  // customer was told first, and a later correction does not earn the detail (trying values until the reward
  // moves must not pay).
  const lastMatchingReply = matches.reduce((last, m) => Math.max(last, m.reply), -1);
  for (const e of earlierValues) if (lastMatchingReply > e.reply) conflicts.push(e);
  for (const e of [...matches, ...conflicts]) if (e.reply < withdrawnBefore) e.mood = 'r';
  const usable = (e: Evidence) => USABLE.has(e.status);
  const sentenceOf = (e: Evidence) => analyses[e.reply].sentences[e.sentence].text;
  const verdict = (covered: boolean, e: Evidence | undefined, reason?: MissReason): ClaimVerdict => ({
    id: claim.id,
    description: claim.description,
    covered,
    ...(reason ? { reason } : {}),
    ...(e ? { reply: e.reply, sentence: sentenceOf(e) } : {}),
  });

  // A claim that names what was acted on ("the keys revoked: a, b") needs every name told in a sentence that states it.
  if (claim.kind === 'action' && namedSets.length > 0 && matches.some((m) => m.mood === 'a') && !everyNameTold(namedSets, matches)) {
    return verdict(false, matches.find((m) => m.mood === 'a'), 'not_stated');
  }
  const spoken = matches.filter(usable);
  const negated = spoken.find((e) => e.mood === 'n' || e.mood === 'o' || e.mood === 'r');
  if (negated) return verdict(false, negated, 'negated');
  const conflict = conflicts.find(usable);
  if (conflict) return verdict(false, conflict, 'conflicting_value');
  const denial = claim.about ? findDenial(claim.about, analyses, claim.anchors ?? [], keyAmounts) : undefined;
  if (denial?.mood === 'n') return verdict(false, denial, 'negated');
  // A plain statement stands beside a question or an offer that mentions the value again ("Would you like the
  // tracking number once the overnight courier collects it?"); a reply that only hedges never states it.
  const asserted = spoken.find((e) => e.mood === 'a');
  const hypothetical = spoken.find((e) => e.mood === 'h');
  if (asserted && !denial) return verdict(true, asserted);
  if (hypothetical) return verdict(false, hypothetical, 'hypothetical');
  if (denial) return verdict(false, denial, 'hypothetical');
  for (const reason of ['quoted_policy', 'other_language', 'not_a_sentence'] as const) {
    const e = matches.find((m) => m.status === reason);
    if (e) return verdict(false, e, reason);
  }
  return verdict(false, undefined, 'not_stated');
}

const MEANS = new Set(['by', 'via', 'with', 'using', 'through', 'on']);

/** An identifier: "ops-svc-5", "bridge-agent-2" (hyphenated, with a digit, no space). */
const IDENTIFIER = /^[a-z][a-z0-9]*-[a-z0-9-]*[a-z0-9]$/;

/** The names an action claim lists when every object is an identifier (the keys revoked), else null. */
function namedList(claim: Extract<ReplyClaim, { kind: 'action' }>): string[] | null {
  const names = claim.objects.map((o) => o.toLowerCase());
  return names.length > 0 && names.every((n) => IDENTIFIER.test(n) && /\d/.test(n)) ? names : null;
}

/** An identifier coordinated with one of the names ("grafana-read and ops-svc-5", "a, b and c") that is not one. */
function namesAnother(tokens: string[], names: string[]): boolean {
  for (let k = 0; k < tokens.length; k++) {
    if (!names.includes(tokens[k])) continue;
    for (const d of [-1, 1]) {
      let j = k + d;
      while (j >= 0 && j < tokens.length && [',', 'and', '&'].includes(tokens[j])) j += d;
      if (j !== k + d && IDENTIFIER.test(tokens[j] ?? '') && !names.includes(tokens[j])) return true;
    }
  }
  return false;
}

/** Whether every name is in some sentence that states the act ('a' match) of its reply. */
function everyNameTold(sets: { reply: number; names: string[]; sentences: AnalysedSentence[] }[], matches: Evidence[]): boolean {
  const told = new Set<string>();
  const read = new Set<string>();
  for (const m of matches) {
    // (Each sentence read once, however many hits it holds.)
    if (m.mood !== 'a' || read.has(`${m.reply}:${m.sentence}`)) continue;
    read.add(`${m.reply}:${m.sentence}`);
    const set = sets.find((x) => x.reply === m.reply);
    if (!set) continue;
    for (const t of set.sentences[m.sentence].tokens) if (set.names.includes(t)) told.add(t);
  }
  return sets[0].names.every((n) => told.has(n));
}

/** Words before a date that make it a range's first day: "from Thu 8 Apr", "between Tuesday 13 and…", "as early as". */
function rangeStart(tokens: string[], start: number): boolean {
  const before = tokens[start - 1] ?? '';
  return before === 'from' || before === 'between' || (before === 'as' && tokens[start - 2] === 'early') || before === 'earliest';
}

/** "ahead of your venue dressing on 9 February", "in time for your event on…", "before your show on…": a deadline. */
function deadlineAt(tokens: string[], start: number): boolean {
  // ("in time for you to dress the venue on the 8th": up to ten words back.)
  for (let k = start - 1; k >= Math.max(0, start - 10); k--) {
    if (/^[.;:!?]$/.test(tokens[k])) return false;
    if ((tokens[k] === 'ahead' && tokens[k + 1] === 'of') || (tokens[k] === 'time' && tokens[k + 1] === 'for') || (tokens[k] === 'before' && tokens[k + 1] === 'your') || (tokens[k] === 'before' && tokens[k + 1] === 'you')) return true;
  }
  return false;
}

/** "with your roadshow starting Thursday", "your event begins on…": the customer's own event, up to five words back. */
function customerEventAt(tokens: string[], start: number): boolean {
  let starting = false;
  for (let k = start - 1; k >= Math.max(0, start - 5); k--) {
    if (/^[.;:!?,]$/.test(tokens[k])) return false;
    if (EVENT_STARTS.has(tokens[k])) starting = true;
    else if (tokens[k] === 'your' && starting) return true;
  }
  return false;
}

const EVENT_STARTS = new Set(['starting', 'starts', 'start', 'begins', 'beginning', 'begin', 'opens', 'opening', 'kicks']);

/** A clause that asks the customer to do something: "give us a call first thing Friday", "please ring us on Monday". */
function requestClause(clause: string[]): boolean {
  let k = 0;
  while (['and', 'then', 'just', 'so', ',', ';', '-'].includes(clause[k] ?? '')) k++;
  return clause[k] === 'please' || REQUEST_VERBS.has(clause[k] ?? '');
}

const REQUEST_VERBS = new Set(['give', 'call', 'ring', 'phone', 'email', 'contact', 'reply', 'write', 'let', 'tell', 'get', 'drop', 'ping', 'message']);

/** A clause that counts days to spare: "in hand", "to spare", "a buffer", "some margin". */
function spareDays(clause: string[]): boolean {
  for (let k = 0; k < clause.length; k++) {
    // ("That leaves you Friday spare before the Saturday set-up.")
    if ((clause[k] === 'in' && clause[k + 1] === 'hand') || clause[k] === 'spare' || clause[k] === 'buffer' || clause[k] === 'margin') return true;
  }
  return false;
}

/** "$2,400.00 is more than…", "$2,400.00, which exceeds…": a figure set against a limit, up to four words on. */
function comparedWithLimit(tokens: string[], end: number): boolean {
  for (let k = end; k < Math.min(tokens.length, end + 4); k++) {
    if (tokens[k] === 'exceeds' || tokens[k] === 'exceeding' || ((tokens[k] === 'more' || tokens[k] === 'higher' || tokens[k] === 'greater') && tokens[k + 1] === 'than')) return true;
    if ((tokens[k] === 'is' || tokens[k] === "it's") && ['over', 'above', 'beyond'].includes(tokens[k + 1] ?? '')) return true;
    if (/^[.;:!?]$/.test(tokens[k])) return false;
  }
  return false;
}

/** "before the stand build on Tuesday 18 May", "ahead of your gala on…": "before"/"ahead of" a named event of theirs. */
function eventDeadlineAt(tokens: string[], start: number): boolean {
  const on = WEEKDAYS.has(tokens[start - 1] ?? '') ? start - 2 : start - 1;
  if (tokens[on] !== 'on' && tokens[on] !== 'for') return false;
  for (let k = on - 1; k >= Math.max(0, on - 6); k--) {
    if (/^[.;:!?,]$/.test(tokens[k])) return false;
    if ((tokens[k] === 'before' || (tokens[k] === 'ahead' && tokens[k + 1] === 'of')) && ['the', 'your', 'their'].includes(tokens[k + (tokens[k] === 'ahead' ? 2 : 1)] ?? '')) return true;
  }
  return false;
}

const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun']);

/** "since they left Bristol on Wednesday morning": a date in a clause opened by "since" is a past reference point. */
function sinceAt(tokens: string[], start: number): boolean {
  for (let k = start - 1; k >= Math.max(0, start - 7); k--) {
    if (/^[.;:!?,]$/.test(tokens[k])) return false;
    if (tokens[k] === 'since') return true;
  }
  return false;
}

/** "$1,250.00 of the duplicate $4,080.00 charge": an amount after "of" and a few words, itself after an amount. */
function wholeOfPart(tokens: string[], start: number): boolean {
  let k = start - 1;
  while (k > start - 4 && k >= 0 && /^[a-z-]+$/.test(tokens[k]) && tokens[k] !== 'of') k--;
  return tokens[k] === 'of' && /^\d/.test(tokens[k - 1] ?? '');
}

/** "raised it from $225", "up from $225": the figure the claim's was raised from. */
function replacedFigure(tokens: string[], start: number): boolean {
  let k = start - 1;
  while (['the', 'a', 'an', 'its', 'old', 'previous', 'earlier'].includes(tokens[k] ?? '')) k--;
  if (tokens[k] !== 'from') return false;
  return tokens.slice(Math.max(0, k - 3), k).some((w) => ['raised', 'increased', 'up', 'changed', 'amended', 'rose', 'went'].includes(w));
}

/** The verbs and nouns of a decision someone makes: "approve it within 3 business days", "sign-off within 2 days". */
const DECIDING = new Set(['approve', 'approves', 'approved', 'approval', 'sign-off', 'signoff', 'review', 'reviews', 'reviewed', 'decide', 'decides', 'decision']);

/** A decision word within six words before a window, in its clause: the window is how long the decision takes. */
function decidedWithin(tokens: string[], start: number): boolean {
  for (let k = start - 1; k >= Math.max(0, start - 6); k--) {
    if (/^[.;:,!?]$/.test(tokens[k])) return false;
    if (DECIDING.has(tokens[k]) || (tokens[k] === 'off' && (tokens[k - 1] === 'sign' || tokens[k - 2] === 'sign'))) return true;
  }
  return false;
}

/** Whether `at` is inside brackets: an opening one before it, within twelve tokens, with no closing one between. */
function inBrackets(tokens: string[], at: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - 12); k--) {
    if (tokens[k] === ')') return false;
    if (tokens[k] === '(') return true;
  }
  return false;
}

/** Counts before an amount that multiply it: "two $20.00 duplicates", "3 x $20.00", "2 × $160". */
const COUNT_WORDS: Readonly<Record<string, number>> = wordTable<number>({ two: 2, both: 2, three: 3, four: 4, five: 5, twice: 2 });
/** Words before an amount that take it away: "- $3.18", "minus $36.82", "less the $3.18". */
const TAKEN_AWAY = new Set(['-', 'minus', 'less', 'deducting', 'deduct', 'without']);

/** Words that end a noun phrase looking back from an amount: a count beyond them is another thing's. */
const NOT_IN_A_NOUN_PHRASE = new Set(['and', 'or', 'but', 'for', 'to', 'with', 'plus', 'minus', 'less', 'from', 'by', 'in', 'on', 'at', 'than', 'then', 'is', 'are', 'was', 'were', 'times']);
/** Words before an amount that it paid off, so that the rest is what was refunded or credited ("settled your overdue $5.92 invoice"). */
const PAID_OFF = new Set(['settled', 'cleared', 'covered', 'paid', 'offset', 'offsets', 'settle', 'clear', 'cover']);

/**
 * Whether the amounts of sentence `si` other than the claim's are the parts of the claim's amount: said in a sentence
 * that states the amount, or in the one just before or after it (same paragraph), and adding up to it - each with its
 * sign ("minus", "-", or what it paid off: "settled your overdue $5.92 invoice") and count ("two", "3 x", "the two
 * duplicate payments of $320"). Parts in the sentence before or after the amount's are summed with that sentence's
 * own. At most eight parts are summed: a breakdown is short, and the signs left open (a part with no sign word) are
 * tried both ways, at most 2^8 sums.
 */
function breaksDown(target: number, sentences: AnalysedSentence[], si: number, same: ClaimSpan[], bySentence: Map<number, ClaimSpan[]>): boolean {
  const matchIn = (k: number) => (bySentence.get(k) ?? []).some((sp) => sp.match);
  const sameParagraph = (a: number, b: number) => a >= 0 && b < sentences.length && sentences[a].paragraph === sentences[b].paragraph;
  // ("…an account credit of $906.82. / That's the duplicate $870 plus a $40 service credit, minus $3.18": the sentence
  // after it, or one that opens by pointing back at it; "Part of the $640.00 settled your overdue $5.92 invoice, and we
  // added $40. / Your credit is therefore $674.08.": the one before it.)
  const pointsBack = ['that', "that's", 'this', 'which', 'comprising', 'made'].includes(sentences[si].tokens[0] ?? '');
  let neighbour = -1;
  if (!same.some((sp) => sp.match)) {
    if (si > 0 && (sameParagraph(si - 1, si) || pointsBack) && matchIn(si - 1)) neighbour = si - 1;
    else if (sameParagraph(si, si + 1) && matchIn(si + 1)) neighbour = si + 1;
    else return false;
  }
  const own = partsOf(same, sentences[si].tokens);
  if (own === null) return false;
  const candidates = [own];
  if (neighbour >= 0) {
    const theirs = partsOf(bySentence.get(neighbour) ?? [], sentences[neighbour].tokens);
    if (theirs !== null) candidates.push([...own, ...theirs]);
  }
  return candidates.some((parts) => addsUp(parts, target));
}

interface Part {
  value: number;
  /** Whether a word gives its sign; an unsigned part is tried both ways. */
  signed: boolean;
  bracketed: boolean;
}

/** The amounts of a sentence other than the claim's, with their signs and counts, or null when there are none or too many. */
function partsOf(spans: ClaimSpan[], tokens: string[]): Part[] | null {
  const amounts = spans.filter((sp) => !sp.match && sp.amount !== undefined);
  if (amounts.length === 0 || amounts.length > 8) return null;
  return amounts.map((part) => {
    let k = part.start - 1;
    while (k >= 0 && ['the', 'a', 'an', 'of', 'further', 'extra', 'another', 'usd', 'overdue'].includes(tokens[k])) k--;
    // ("the two repeat $1,440.00 charges", "the two duplicate payments of USD 320": a count up to three words further back.)
    // (Over nouns and adjectives only: "the two duplicate charges and a $40.00 service credit" counts nothing for $40.)
    let farCount = 0;
    for (let j = k - 1; j >= Math.max(0, k - 3) && /^[a-z]+$/.test(tokens[j + 1] ?? '') && !((tokens[j + 1] ?? '') in COUNT_WORDS) && !NOT_IN_A_NOUN_PHRASE.has(tokens[j + 1] ?? ''); j--) {
      if ((tokens[j] ?? '') in COUNT_WORDS) {
        farCount = COUNT_WORDS[tokens[j]];
        break;
      }
      if (!/^[a-z]+$/.test(tokens[j] ?? '') || NOT_IN_A_NOUN_PHRASE.has(tokens[j])) break;
    }
    // ("- the $40 you paid extra": a dash before an article is an aside's, not a minus.)
    const minus = tokens[part.start - 1] === '-' || (TAKEN_AWAY.has(tokens[k] ?? '') && tokens[k] !== '-');
    const paidOff = PAID_OFF.has(tokens[k] ?? '') || (tokens[k] === 'off' && PAID_OFF.has(tokens[k - 1] ?? ''));
    let count = 1;
    const times = (t: string | undefined) => t === 'x' || t === '×' || t === '*';
    if (times(tokens[k]) && /^\d{1,2}$/.test(tokens[k - 1] ?? '')) count = Number(tokens[k - 1]);
    // ("USD 1,008.00 x 2 + USD 20.00 service credit": the count after the figure.)
    else if (times(tokens[part.end]) && /^\d{1,2}$/.test(tokens[part.end + 1] ?? '')) count = Number(tokens[part.end + 1]);
    else if (tokens[k] in COUNT_WORDS) count = COUNT_WORDS[tokens[k]];
    else if (farCount) count = farCount;
    const plus = tokens[k] === '+' || tokens[k] === 'plus';
    return { value: (minus || paidOff ? -1 : 1) * count * part.amount!, signed: minus || paidOff || plus, bracketed: inBrackets(tokens, part.start) };
  });
}

/**
 * Whether the parts add up to the amount, the unsigned ones taken either way; or the bracketed parts alone ("the
 * duplicate $75.00 charge ($75 + $20 service credit, minus the $3.00…)", beside the charge they explain).
 */
function addsUp(parts: Part[], target: number): boolean {
  const near = (x: number) => Math.abs(x - target) < 0.005;
  const bracketed = parts.filter((p) => p.bracketed).reduce((sum, p) => sum + p.value, 0);
  if (parts.some((p) => p.bracketed) && near(bracketed)) return true;
  const open = parts.filter((p) => !p.signed);
  const fixed = parts.filter((p) => p.signed).reduce((sum, p) => sum + p.value, 0);
  for (let mask = 0; mask < 1 << open.length; mask++) {
    let sum = fixed;
    open.forEach((p, j) => (sum += mask & (1 << j) ? -p.value : p.value));
    if (near(sum)) return true;
  }
  return false;
}

/**
 * Whether the marker a span is said of is one of the claim's `not_about` words rather than its event (`about`) or
 * `anchors`: the nearest marker before it in the sentence ("collected on Tuesday 27 April and delivered on
 * Wednesday 28 April": each date follows its verb), or, with none before it, the nearest after it ("Tuesday is
 * when it arrives"). Linear in the sentence, for each of the claim's words.
 */
function saidOfSomethingElse(claim: ReplyClaim, tokens: string[], span: { start: number; end: number }): boolean {
  if (!claim.not_about?.length) return false;
  const { other, own } = markersOf(claim, tokens);
  const otherBefore = lastAtOrBefore(other.ends, span.start);
  const ownBefore = lastAtOrBefore(own.ends, span.start);
  if (otherBefore !== -Infinity || ownBefore !== -Infinity) return otherBefore > ownBefore;
  return firstAtOrAfter(other.starts, span.end) < firstAtOrAfter(own.starts, span.end);
}

/** Whether the nearest marker before a span in its sentence is one of the claim's own words, not a `not_about` one. */
function ownMarkerNearest(claim: ReplyClaim, tokens: string[], span: { start: number }): boolean {
  if (claim.kind !== 'date' || !claim.not_about?.length) return false;
  const { other, own } = markersOf(claim, tokens);
  const ownBefore = lastAtOrBefore(own.ends, span.start);
  return ownBefore !== -Infinity && ownBefore > lastAtOrBefore(other.ends, span.start);
}

interface Markers {
  /** Where each occurrence ends, ascending. */
  ends: number[];
  /** Where each occurrence starts, ascending. */
  starts: number[];
}

/**
 * Where a claim's `not_about` words and its own (`about`, `anchors`) occur in a sentence, found once per sentence
 * and claim: a sentence of many values asks of each, and scanning it again for each would be quadratic.
 */
const markerCache = new WeakMap<string[], Map<ReplyClaim, { other: Markers; own: Markers }>>();
function markersOf(claim: ReplyClaim, tokens: string[]): { other: Markers; own: Markers } {
  let byClaim = markerCache.get(tokens);
  if (!byClaim) markerCache.set(tokens, (byClaim = new Map()));
  let found = byClaim.get(claim);
  if (!found) {
    const collect = (phrases: readonly string[]): Markers => {
      const at = phrases.flatMap((phrase) => occurrences(tokens, phrase));
      return { ends: at.map((o) => o.end).sort((x, y) => x - y), starts: at.map((o) => o.start).sort((x, y) => x - y) };
    };
    found = { other: collect(otherWords(claim)), own: collect(ownWords(claim)) };
    byClaim.set(claim, found);
  }
  return found;
}

/**
 * A claim's `not_about` words, with the -ing form of each verb among them ("settling within five to seven business days"
 * beside "settle", "settles", "settled"): the marker of another event in any of its forms.
 */
const otherWordsOf = new WeakMap<ReplyClaim, string[]>();
function otherWords(claim: ReplyClaim): string[] {
  let words = otherWordsOf.get(claim);
  if (!words) {
    words = [...(claim.not_about ?? [])];
    for (const w of claim.not_about ?? []) {
      if (!/^[a-z]+ed$/.test(w)) continue;
      // ("settled" → "settling", "credited" → "crediting", "collected" → "collecting".)
      const ing = `${w.slice(0, -2)}ing`;
      if (!words.includes(ing)) words.push(ing);
    }
    otherWordsOf.set(claim, words);
  }
  return words;
}

/**
 * The words that name a claim's own event: its `about` and `anchors`, and for a delivery day the ways of saying a
 * parcel reaches the customer that no task lists ("on your doorstep Friday the 25th", "at your door by Tuesday").
 */
const ownWordsOf = new WeakMap<ReplyClaim, string[]>();
function ownWords(claim: ReplyClaim): string[] {
  let words = ownWordsOf.get(claim);
  if (!words) {
    words = [...(claim.about ?? []), ...(claim.anchors ?? [])];
    // ("Amex will drop those two pending holds": a noun of the event in the plural names it too.)
    const plurals = words.filter((w) => /^[a-z]+$/.test(w) && !/(s|ed|ing)$/.test(w)).map((w) => `${w}s`);
    // ("somebody in Hanoi had a go at signing in to your account": a phrasal verb's -ing form.)
    const ings = words.flatMap((w) => {
      const m = /^([a-z]+) (in|on|out|off|up)$/.exec(w);
      if (!m || /(ed|ing|s)$/.test(m[1])) return [];
      const stem = /^[^aeiou]*[aeiou][bcdfglmnprt]$/.test(m[1]) ? m[1] + m[1].slice(-1) : m[1];
      return [`${stem}ing ${m[2]}`];
    });
    words.push(...[...plurals, ...ings].filter((p) => !words!.includes(p)));
    if (claim.kind === 'date' && words.some((w) => w === 'delivered' || w === 'delivery')) words.push(...REACHES_YOU);
    ownWordsOf.set(claim, words);
  }
  return words;
}
const REACHES_YOU = ['doorstep', 'at your door', 'in your hands', 'with you', 'reach you', 'arrive', 'arrives', 'arriving', 'turn up', 'turns up', 'show up', 'shows up'];

/**
 * "I've added $430.00 to your account", "It'll be applied to your account balance within 8 business days": money
 * added to the account is a credit, whatever the noun.
 */
function addedToAccount(tokens: string[]): boolean {
  let added = -1;
  for (let k = 0; k < tokens.length; k++) {
    if (ADDED.has(tokens[k])) added = k;
    else if (added >= 0 && ['account', 'balance'].includes(tokens[k]) && ['your', 'account'].includes(tokens[k - 1] ?? '') && k - added <= 8) return true;
  }
  return false;
}
const ADDED = new Set(['added', 'applied', 'put', 'placed', 'posted', 'adding', 'applying']);

/** The largest value in ascending `sorted` at or below `limit`, or -Infinity. Binary search. */
function lastAtOrBefore(sorted: number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? -Infinity : sorted[lo - 1];
}

/** The smallest value in ascending `sorted` at or above `limit`, or Infinity. Binary search. */
function firstAtOrAfter(sorted: number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo === sorted.length ? Infinity : sorted[lo];
}

/** Where the words of `phrase` occur together in the tokens. */
function occurrences(tokens: string[], phrase: string): { start: number; end: number }[] {
  let words = wordLists.get(phrase);
  if (!words) wordLists.set(phrase, (words = phrase.toLowerCase().split(/\s+/)));
  const found: { start: number; end: number }[] = [];
  for (let i = 0; i + words.length <= tokens.length; i++) if (tokens[i] === words[0] && wordsAt(tokens, i, words)) found.push({ start: i, end: i + words.length });
  return found;
}

/**
 * Said of the earlier attempt the option claim replaces (lexicon `earlier_attempt`), in the sentence before the
 * rival and with no word for the new attempt nearer to it.
 */
function aboutTheOriginal(tokens: string[], at: number, lexicon: Lexicon): boolean {
  for (let k = at - 1; k >= 0 && !/^[.;:!?]$/.test(tokens[k]); k--) {
    if (lexicon.renewals.has(tokens[k])) return false;
    if (lexicon.earlierAttempt.has(tokens[k])) return true;
  }
  return false;
}

/** "by standard ground", "via express", "with the overnight courier", "on an express service". */
function givenAsMeans(tokens: string[], start: number): boolean {
  // ("…gift boxes by express": the option's own phrase may open with the preposition.)
  if (tokens[start] === 'by' || tokens[start] === 'via') return true;
  let k = start - 1;
  while (k >= 0 && ['the', 'a', 'an', 'our', 'its'].includes(tokens[k])) k--;
  return k >= 0 && MEANS.has(tokens[k]);
}

/** A finite verb in the sentence ("I've sent", "they went"): "Replacing a lost order by standard ground." is a title. */
const finiteVerbs = new WeakMap<string[], boolean>();
function finiteVerbIn(tokens: string[]): boolean {
  let known = finiteVerbs.get(tokens);
  if (known === undefined) finiteVerbs.set(tokens, (known = readFiniteVerb(tokens)));
  return known;
}

function readFiniteVerb(tokens: string[]): boolean {
  return tokens.some((t) => AUXILIARIES.has(t) || /'(ve|ll|s|d|re|m)$/.test(t) || /n't$/.test(t) || /^[a-z]{3,}ed$/.test(t) || PAST_FORMS.has(t));
}
const PAST_FORMS = new Set(['sent', 'went', 'put', 'got', 'gave', 'made', 'shipped', 'left', 'set']);

/** Whether a label line's label is a "When" (or "Date") and the value at `start` follows its colon. */
function whenLabelBefore(tokens: string[], start: number): boolean {
  if (!isLabelLine(tokens)) return false;
  const colon = tokens.indexOf(':');
  if (colon < 0 || start <= colon) return false;
  const label = tokens.slice(0, colon).filter((t) => /^[a-z]/.test(t));
  // ("- When/where: 2026-11-01, 04:21 UTC, Bristol (GB)": with the place beside it.)
  return label.length >= 1 && label.length <= 3 && label.some((w) => WHEN_LABELS.has(w)) && label.every((w) => WHEN_LABELS.has(w) || ['where', 'and', 'or'].includes(w));
}
const WHEN_LABELS = new Set(['when', 'date', 'when/where', 'date/time', 'time']);

/** Whether `start` is where a label line's value begins: "- Service: standard ground". */
function labelValueAt(tokens: string[], start: number): boolean {
  return isLabelLine(tokens) && tokens[start - 1] === ':';
}

function namesEvent(claim: ReplyClaim, tokens: string[]): boolean {
  return remembered(eventNamed, claim, tokens, () => (claim.about ?? []).some((word) => containsWords(tokens, word, undefined, true)));
}

/** Words that make the event named after them another one: "a fresh refund", "a second refund", "another credit". */
const ANOTHER = new Set(['fresh', 'second', 'another', 'further', 'additional', 'repeat']);

/**
 * The nouns of a claim's one-word anchors as a label names them: "- Arrival: within 7-10 business days" for
 * "arrive", "Settlement:" for "settle". Worked out once per claim.
 */
const labelNouns = new WeakMap<ReplyClaim, Set<string>>();

function anchorNounsOf(claim: ReplyClaim): Set<string> {
  let nouns = labelNouns.get(claim);
  if (!nouns) {
    nouns = new Set();
    for (const w of [...(claim.about ?? []), ...(claim.anchors ?? [])]) {
      if (!/^[a-z]+$/.test(w)) continue;
      const stem = w.endsWith('e') ? w.slice(0, -1) : w;
      for (const suffix of ['al', 'ment', 'ance']) nouns.add(stem + suffix);
    }
    labelNouns.set(claim, nouns);
  }
  return nouns;
}

/** A label line whose label is the noun of the claim's event ("Arrival: …"). */
function labelNamesEvent(claim: ReplyClaim, tokens: string[]): boolean {
  if (!isLabelLine(tokens)) return false;
  const nouns = anchorNounsOf(claim);
  for (const t of tokens) {
    if (t === ':') return false;
    if (nouns.has(t)) return true;
  }
  return false;
}

/*
 * What a claim finds in a clause, kept per claim and clause (clauseOf gives each clause one array): a sentence of
 * many values asked the same of one clause for each of them, reading it again each time.
 */
const eventNamed = new WeakMap<ReplyClaim, WeakMap<string[], boolean>>();
const otherThingNamed = new WeakMap<Lexicon, WeakMap<ReplyClaim, WeakMap<string[], boolean>>>();

function remembered(memo: WeakMap<ReplyClaim, WeakMap<string[], boolean>>, claim: ReplyClaim, tokens: string[], answer: () => boolean): boolean {
  let byTokens = memo.get(claim);
  if (!byTokens) memo.set(claim, (byTokens = new WeakMap()));
  let known = byTokens.get(tokens);
  if (known === undefined) byTokens.set(tokens, (known = answer()));
  return known;
}

/**
 * A value counts only where the reply says what it is about: the claim's event named in the sentence ("refunded
 * $348.00", "arrives Friday 27 November"), or in the sentence just before when this one carries it on with a
 * pronoun or sits under it as a heading ("When you'll have it" / "Friday 27 November"). "I can see $348.00 on your
 * file", "I worked on your case overnight" tell nothing about a refund or a courier. Claims without `about` (an
 * action names its own object) need nothing more.
 */
function anchored(claim: ReplyClaim, sentences: AnalysedSentence[], span: { sentence: number; end: number; match?: boolean }, names: (tokens: string[]) => boolean, lexicon: Lexicon = NO_LEXICON): boolean {
  const words = [...(claim.about ?? []), ...(claim.anchors ?? [])];
  if (claim.kind === 'action' || words.length === 0) return true;
  const at = span.sentence;
  // "I've sent the packs on standard ground", "- Service: standard ground": an option given as the means, or as a
  // label's value, says how the claim's event is done.
  // ("They're going express and will be with you by Tuesday", "shipping overnight priority today": an option after a
  // verb of sending is how the thing is sent.)
  // (Not the first parcel's: "your original order went express" says nothing of the replacement.)
  if (claim.kind === 'option' && span.match === true && (span as ClaimSpan).sent === true && finiteVerbIn(sentences[at].tokens) && !aboutTheOriginal(sentences[at].tokens, (span as ClaimSpan).start, lexicon)) return true;
  if (claim.kind === 'option' && span.match === true && 'start' in span && (labelValueAt(sentences[at].tokens, (span as { start: number }).start) || finiteVerbIn(sentences[at].tokens)) && (givenAsMeans(sentences[at].tokens, (span as { start: number }).start) || labelValueAt(sentences[at].tokens, (span as { start: number }).start))) return true;
  // ("- When: 2026-11-01, 04:21 UTC, Bristol (GB)", "• When: 31.08.2026, 21:22 UTC": a list's "When" gives the day of
  // what the list is about.)
  if (claim.kind === 'date' && 'start' in span && whenLabelBefore(sentences[at].tokens, (span as { start: number }).start)) return true;
  // "you're getting $348.00 back": money given back is a refund, whatever the verb.
  if (names(sentences[at].tokens) || (claim.kind === 'money' && sentences[at].tokens[span.end] === 'back') || labelNamesEvent(claim, sentences[at].tokens)) return true;
  // "…the second $270.00 renewal charge was a duplicate. Refunded to your Amex 6612; …": the next line opens with the
  // event, said of what this one named.
  const next = sentences[at + 1];
  // (Not when that line has its own figure: "- What happened: renewal ($4,125.00) charged again / - What we've done:
  // credited $4,161.44" credits the second figure, not the first.)
  if (next && next.paragraph === sentences[at].paragraph && opensWithEvent(claim, next) && sentences[at].moods[span.end - 1] === 'a' && !(claim.kind === 'money' && next.tokens.some((t) => /^([$€£]|usd|eur|gbp)$/.test(t)))) return true;
  // "- When: 21/04/2026 (12:54 UTC) / - What: two sign-in attempts from Hanoi": the next item of one list names the
  // event the claim's own value is the time of.
  // ("- Date: April 16, 2026 / - Origin: Sao Paulo / - Outcome: all 4 attempts blocked": a later item, up to the list's reach.)
  if (claim.kind === 'date' && span.match === true && isLabelLine(sentences[at].tokens)) {
    for (let k = at + 1; k < Math.min(sentences.length, at + 1 + LIST_REACH); k++) {
      const item = sentences[k];
      if (item.paragraph !== sentences[at].paragraph || !isLabelLine(item.tokens)) break;
      if (names(item.tokens)) return true;
    }
  }
  // ("I've issued a credit of 353.42 USD. (That's the $320 duplicate, plus $40 from us.) It lands on your balance within
  // 15 business days": a sentence in brackets is an aside, and the one after it goes on from the one before it.)
  // ("…a credit of $4,161.44 on your account. That's the $4,125.00 duplicate, plus $50.00 from us. It will land on your
  // account balance within nine business days": a sentence that restates the figure is an aside too.)
  const asideBefore = sentences[at - 1] && (bracketed(sentences[at - 1].tokens) || restatesFigure(sentences[at - 1].tokens)) && !names(sentences[at - 1].tokens);
  const previous = asideBefore && sentences[at - 2]?.paragraph === sentences[at].paragraph ? sentences[at - 2] : sentences[at - 1];
  // ("- A sign-in from a device we hadn't seen before / - Tuesday 25 August 2026, 20:34 UTC": a line that is the value
  // alone goes on from the line before it.)
  // (Only a line a few words longer than its value is read: a line of many values would be read again for each.)
  // (Not after a line that asserts nothing: "Credit status: pending / $458.52" says no credit was made.)
  if (span.match === true && previous && previous.paragraph === sentences[at].paragraph && 'start' in span && sentences[at].tokens.length <= span.end - (span as { start: number }).start + 8 && valuesOnly(sentences[at].tokens, [span as { start: number; end: number }], sentences[at].tokens.length) && names(previous.tokens) && endsAsserted(previous)) return true;
  // "Here's what I found about that sign-in email: / - When: 2026-11-13, 06:51 UTC": a list item under a lead-in.
  const leadIn = listLeadIn(sentences, at);
  if (leadIn >= 0 && names(sentences[leadIn].tokens)) return true;
  if (!previous || previous.paragraph !== sentences[at].paragraph || !names(previous.tokens)) return false;
  // "It will settle within 5-7 business days.", "Allow 5-7 business days.": the sentence carries the one before on.
  // ("…credit of $2,913.70 issued. / Applied to your balance within 3 business days", "On your balance within 11
  // business days": a fragment with no subject of its own goes on with the one before.)
  const first = sentences[at].tokens[0] ?? '';
  // ("- Do you need a refund? No, since the money never left your account; the first $232.00 is your renewal": an
  // answer of no under a question tells nothing of its event.)
  if (previous.tokens[previous.tokens.length - 1] === '?' && ['no', 'nope', 'not', 'nothing', 'none'].includes(first)) return false;
  const carriesOn =
    sentences[at].tokens.slice(0, 4).some((t) => ['it', "it'll", "it's", 'this', 'that', 'they', "they'll", 'these', 'both', 'allow', 'expect'].includes(t)) ||
    ['on', 'in', 'within', 'to'].includes(first) ||
    ((/^[a-z]+ed$/.test(first) || ARRIVING.has(first)) && !isLabelLine(sentences[at].tokens));
  // (A short heading, not a list's item: "- Then: it's used against your next invoice" heads nothing.)
  const underHeading = previous.tokens.length <= 8 && !previous.tokens.includes('.') && (!isLabelLine(previous.tokens) || previous.tokens[previous.tokens.length - 1] === ':');
  // "- Account credit applied: $360.00 / - Timing: within 15 business days": one list's items about one case.
  // (The claim's own value only: the next items of a list also name other charges and dates, which are not rivals.)
  // ("- Fix: a $1,195.00 credit has been issued. Monthly plans are credited. / - Timing: applied to your account balance
  // within 6 business days": the item before may run to more than one sentence.)
  const nextItem = span.match === true && isLabelLine(sentences[at].tokens) && itemOpensAt(sentences, at - 1) >= 0;
  return carriesOn || underHeading || nextItem;
}

/**
 * A figure said as owed: "you're owed $10,080 back", "we owe you $540.00", "$10,080.00 in total to be returned",
 * "$540.00 is still due to you". It tells what the customer should get, not what was done.
 */
function owedFigure(tokens: string[], start: number, end: number): boolean {
  for (let k = start - 1; k >= Math.max(0, start - 3); k--) {
    if (OWING.has(tokens[k])) return true;
    if (!['you', 'us', 'the', 'a', 'still'].includes(tokens[k])) break;
  }
  let k = end;
  if (tokens[k] === 'in' && tokens[k + 1] === 'total') k += 2;
  if (tokens[k] === 'to' && tokens[k + 1] === 'be') return true;
  if (['is', 'are'].includes(tokens[k]) && tokens[k + 1] === 'still') k++;
  return ['is', 'are'].includes(tokens[k]) && OWING.has(tokens[k + 1] ?? '');
}

/**
 * Whether a sentence says something was "already" done on a day before the ticket's own (the analysis's clock): the
 * day within ten words after "already", in the same part of the sentence ("already sent to you on 14 April"; not "…
 * already done: … (created on 7 December)").
 */
function alreadyOnAnEarlierDay(analysis: ReplyAnalysis, sentence: number): boolean {
  const tokens = analysis.sentences[sentence].tokens;
  const already = tokens.indexOf('already');
  if (already < 0) return false;
  const today = analysis.clock.slice(0, 10);
  return analysis.mentions.some(
    (m) => m.sentence === sentence && m.value.kind === 'date' && m.value.date < today && m.start > already && m.start - already <= 10 && !tokens.slice(already, m.start).some((t) => /^[.;:()]$/.test(t)),
  );
}

/** "too late", "too slow" within twelve tokens after a value, before the sentence part ends. */
function tooLateAfter(tokens: string[], end: number): boolean {
  for (let k = end; k < Math.min(tokens.length - 1, end + 12); k++) {
    if (/^[.;!?]$/.test(tokens[k])) return false;
    if (tokens[k] === 'too' && ['late', 'slow', 'long'].includes(tokens[k + 1])) return true;
  }
  return false;
}

/** Whether every doubting word of a clause is one of the claim's own event words ("for approval" of an approval window). */
function onlyDoubtIsTheEvent(claim: ReplyClaim, clause: string[]): boolean {
  const own = new Set(claim.about ?? []);
  let doubts = 0;
  for (const w of clause) {
    if (!isHedge(w)) continue;
    if (!own.has(w)) return false;
    doubts++;
  }
  return doubts > 0;
}

/** A clause that says a figure was charged: "two extra charges of $5,040.00", "the $5,040.00 renewal was taken". */
function chargeClause(clause: string[]): boolean {
  return clause.some((w) => CHARGED.has(w));
}

const CHARGED = new Set(['charge', 'charges', 'charged', 'renewal', 'taken', 'billed', 'debited', 'payment', 'payments']);

const OWING = new Set(['owed', 'owe', 'owing', 'due']);

/** "…refunded … again", "a second time", "once more": the act done over, another one than the key's. */
function doneAgain(clause: string[]): boolean {
  for (let k = 0; k < clause.length; k++) {
    if (clause[k] === 'again' || (clause[k] === 'second' && clause[k + 1] === 'time') || (clause[k] === 'once' && clause[k + 1] === 'more')) return true;
  }
  return false;
}

/** Whether a sentence's last word is said as done ("Credit status: pending", "- Refund: not yet issued" are not). */
function endsAsserted(sentence: AnalysedSentence): boolean {
  for (let k = sentence.tokens.length - 1; k >= 0; k--) if (/[\p{L}\p{N}]/u.test(sentence.tokens[k])) return sentence.moods[k] === 'a';
  return false;
}

/** The label line opening the list item sentence k belongs to (up to two sentences back, in its paragraph), or -1. */
function itemOpensAt(sentences: AnalysedSentence[], k: number): number {
  for (let j = k; j >= Math.max(0, k - 2); j--) {
    if (sentences[j].paragraph !== sentences[k].paragraph) return -1;
    if (isLabelLine(sentences[j].tokens)) return j;
    if (['-', '*', '•'].includes(sentences[j].tokens[0])) return -1;
  }
  return -1;
}

/** A sentence that says what a figure before it is made of: "That's the $4,125.00 duplicate, plus $50.00 from us". */
function restatesFigure(tokens: string[]): boolean {
  const opens = tokens[0] === "that's" || ((tokens[0] === 'that' || tokens[0] === 'this') && ['is', 'covers', 'includes', 'comprises'].includes(tokens[1]));
  return opens && tokens.some((t) => /^[$€£]$/.test(t));
}

/** A sentence wholly in brackets: "(That's the $320 duplicate, plus $40 from us.)". */
function bracketed(tokens: string[]): boolean {
  let last = tokens.length - 1;
  while (last > 0 && /^[.!?]$/.test(tokens[last])) last--;
  return tokens[0] === '(' && tokens[last] === ')';
}

/**
 * A sentence whose first word (past bullets, or a label) is the event, as a verbless report: "Refunded to your Amex
 * 6612", "- Action taken: refunded in full".
 */
function opensWithEvent(claim: ReplyClaim, s: AnalysedSentence): boolean {
  // ("- Action taken: refunded in full to the Visa ending 3179": a label line's value opens with it.)
  let k = isLabelLine(s.tokens) ? s.tokens.indexOf(':') + 1 : 0;
  while (k < s.tokens.length && !/^[a-z]/.test(s.tokens[k])) k++;
  // ("…the second $450.00 charge … came from an automatic gateway retry. I have refunded it to your Amex": our act on
  // "it", opening the next sentence.)
  const opening = k;
  if (["i've", "we've"].includes(s.tokens[k] ?? '')) k++;
  else if (['i', 'we'].includes(s.tokens[k] ?? '') && ['have', 'has'].includes(s.tokens[k + 1] ?? '')) k += 2;
  if (k > opening && !['it', 'this', 'that', 'them'].includes(s.tokens[k + 1] ?? '')) return false;
  return (claim.about ?? []).includes(s.tokens[k] ?? '') && /ed$/.test(s.tokens[k]) && s.moods[k] === 'a';
}

/** Verbs of arriving that open a subjectless fragment going on from the sentence before: "Lands on your balance…". */
const ARRIVING = new Set(['lands', 'shows', 'appears', 'arrives', 'reaches', 'hits', 'goes', 'comes', 'clears', 'posts', 'settles', 'reflects']);

/** How far back a list item looks for its lead-in: the items between are label lines. */
const LIST_REACH = 6;

/**
 * The sentence introducing the list a label line belongs to ("Here's what I found about that sign-in email:"), or -1:
 * the nearest sentence before it in its paragraph that ends with a colon, over label lines only.
 */
function listLeadIn(sentences: AnalysedSentence[], at: number): number {
  if (!isLabelLine(sentences[at].tokens)) return -1;
  for (let k = at - 1; k >= Math.max(0, at - LIST_REACH); k--) {
    const s = sentences[k];
    if (s.paragraph !== sentences[at].paragraph) return -1;
    if (s.tokens[s.tokens.length - 1] === ':') return k;
    if (!isLabelLine(s.tokens)) return -1;
  }
  return -1;
}

/**
 * The words of the clause a span is in, with the clause before when this one is relative ("a carrier trace,
 * which can take up to 5 business days" is about the trace).
 */
function clauseOf(s: AnalysedSentence, at: number): string[] {
  let byId = clausesOf.get(s);
  if (!byId) clausesOf.set(s, (byId = new Map()));
  const id = s.clauses[at];
  let clause = byId.get(id);
  if (!clause) byId.set(id, (clause = readClause(s, at)));
  return clause;
}

/** The words of each clause of a sentence, by clause number, once each. */
const clausesOf = new WeakMap<AnalysedSentence, Map<number, string[]>>();

function readClause(s: AnalysedSentence, at: number): string[] {
  const id = s.clauses[at];
  const first = s.clauses.indexOf(id);
  const relative = ['which', 'that', 'where', 'who', 'whose'].includes(s.tokens[first + (s.tokens[first] === ',' || s.tokens[first] === '(' ? 1 : 0)]);
  return s.tokens.filter((_, k) => s.clauses[k] === id || (relative && s.clauses[k] === id - 1));
}

/** The clause names something else the value is said of (`not_about`) and not the claim's event (`about`). */
/** Words that say a charge stands as it is: "is correct", "stays", "remains unchanged", "is legitimate". */
const STANDING = new Set(['correct', 'unchanged', 'stays', 'remains', 'stands', 'legitimate', 'genuine', 'valid', 'owed', 'untouched']);

/** "so it stays", "and it remains": a sentence that says its figure stands, in a clause of its own. */
function itStands(tokens: string[]): boolean {
  for (let k = 1; k < tokens.length; k++) if (tokens[k - 1] === 'it' && (STANDING.has(tokens[k]) || tokens[k] === 'stays')) return true;
  return false;
}

function standsAsItIs(claim: ReplyClaim, clause: string[]): boolean {
  return clause.some((w) => STANDING.has(w)) && !namesEvent(claim, clause);
}

function aboutSomethingElse(claim: ReplyClaim, tokens: string[], lexicon: Lexicon): boolean {
  let memo = otherThingNamed.get(lexicon);
  if (!memo) otherThingNamed.set(lexicon, (memo = new WeakMap()));
  return remembered(memo, claim, tokens, () => namesSomethingElse(claim, tokens, lexicon));
}

function namesSomethingElse(claim: ReplyClaim, tokens: string[], lexicon: Lexicon): boolean {
  if (!claim.not_about || namesEvent(claim, tokens)) return false;
  // "credited back to your card" is how some say refunded.
  return claim.not_about.some((word) => containsWords(tokens, word, (end) => !creditedBack(tokens, end, lexicon) && !sumOfTheFigure(tokens, end)));
}

/** "$1,195 in total", "$1,195 altogether": said of the figure just before, a sum of its parts, not another thing. */
function sumOfTheFigure(tokens: string[], end: number): boolean {
  if (tokens[end - 1] === 'total') return tokens[end - 2] === 'in' && /^\d/.test(tokens[end - 3] ?? '');
  return tokens[end - 1] === 'altogether' && /^\d/.test(tokens[end - 2] ?? '');
}

/** "credited back", "credited to your card": a refund to where the money came from, in other words. */
function creditedBack(tokens: string[], end: number, lexicon: Lexicon): boolean {
  // Read as version 2 read it: a word that begins with the place counts ("to your card's", "to your visas").
  if (tokens[end]?.startsWith('back')) return true;
  const where = tokens[end + 2];
  if (tokens[end] !== 'to' || (tokens[end + 1] !== 'your' && tokens[end + 1] !== 'the') || where === undefined) return false;
  return REFUND_DESTINATIONS.some((place) => where.startsWith(place)) || [...lexicon.refundDestinations].some((place) => where.startsWith(place));
}

const wordLists = new Map<string, string[]>();

function wordsAt(tokens: string[], i: number, words: string[]): boolean {
  for (let k = 0; k < words.length; k++) if (tokens[i + k] !== words[k]) return false;
  return true;
}

/** Every end accepted (made once, not at each call). */
const ACCEPT_ANY = (): boolean => true;

/**
 * Whether the words of `phrase` occur together in the tokens (optionally checked at the end of the match); with
 * `sameEvent`, not where a word makes it another one ("a fresh refund of $551.00" names no refund already made).
 */
function containsWords(tokens: string[], phrase: string, accept: (end: number) => boolean = ACCEPT_ANY, sameEvent = false): boolean {
  let words = wordLists.get(phrase);
  if (!words) wordLists.set(phrase, (words = phrase.toLowerCase().split(/\s+/)));
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (tokens[i] === words[0] && wordsAt(tokens, i, words) && accept(i + words.length) && !(sameEvent && (ANOTHER.has(tokens[i - 1] ?? '') || setAside(tokens, i)))) return true;
  }
  return false;
}

/** "rather than a card refund", "instead of the refund": the event named only to be set aside. */
function setAside(tokens: string[], i: number): boolean {
  let k = i - 1;
  while (k >= i - 2 && ['a', 'an', 'the', 'card', 'cash', 'full'].includes(tokens[k] ?? '')) k--;
  return (tokens[k] === 'than' && tokens[k - 1] === 'rather') || (tokens[k] === 'of' && tokens[k - 1] === 'instead');
}

interface ClaimSpan {
  sentence: number;
  start: number;
  end: number;
  match: boolean;
  nearMiss: boolean;
  /** A money span's amount (for a breakdown of the claim's amount into its parts). */
  amount?: number;
  /** A duration beside a date claim (one of its near misses). */
  isDuration?: boolean;
  /** An option after a verb of sending ("they're going overnight priority"). */
  sent?: boolean;
}

function valueSpans(claim: Extract<ReplyClaim, { kind: 'money' | 'duration' | 'date' }>, mentions: ValueMention[], sentences: AnalysedSentence[], lexicon: Lexicon): ClaimSpan[] {
  const target = claimValue(claim);
  const nearMisses = claim.near_misses ?? [];
  const out: ClaimSpan[] = [];
  for (const m of mentions) {
    const span = (match: boolean, nearMiss: boolean): ClaimSpan => ({
      sentence: m.sentence, start: m.start, end: m.end, match, nearMiss,
      ...(m.value.kind === 'money' ? { amount: m.value.amount } : {}),
      ...(m.value.kind === 'duration' && claim.kind === 'date' ? { isDuration: true } : {}),
    });
    const same = sameValue(target, m.value);
    // The right date with a later time than the deadline ("Friday 27 November, by 18:00") is another commitment.
    // "$150.00 per kit" is a rate, another figure than "$150.00".
    const other = () =>
      (claim.kind === 'date' && claim.by_time !== undefined && laterThan(sentences[m.sentence].tokens, m, claim.by_time)) ||
      (m.value.kind === 'money' && perUnit(sentences[m.sentence].tokens, m.end, lexicon));
    if (same && other()) out.push(span(false, true));
    else if (same) out.push(span(true, false));
    else if (m.value.kind === 'money' && target.kind === 'money' && m.value.currency === target.currency && Math.round(m.value.amount * countedEach(sentences[m.sentence].tokens, m.end) * 100) === Math.round(target.amount * 100)) out.push(span(true, false));
    else if (nearMisses.some((n) => sameValue(n, m.value))) out.push(span(false, true));
    else if (m.value.kind === target.kind && !compatible(target, m.value)) out.push(span(false, false));
  }
  return out;
}

/**
 * "INV-52129 and INV-52130 ($700.00 each), … both refunded": a figure "each", with a count of them within twelve words
 * either side ("both", "two", "three"…), is the count times the figure; 0 where it is no such figure.
 */
function countedEach(tokens: string[], end: number): number {
  if (tokens[end] !== 'each') return 0;
  for (let k = Math.max(0, end - 12); k < Math.min(tokens.length, end + 12); k++) {
    const count = COUNT_WORDS[tokens[k]];
    if (count !== undefined && count > 1 && tokens[k] !== 'twice') return count;
  }
  return 0;
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
    sent: h.sent,
  }));
}

/** Alternatives in one breath: "or" / "either" between them, or "between X and Y". */
function coordinatedWith(tokens: string[], a: ClaimSpan, b: ClaimSpan): boolean {
  const [first, second] = a.start < b.start ? [a, b] : [b, a];
  const counts = countsOf(tokens);
  if (countBetween(counts.stops, first.end, second.start) > 0) return false;
  if (countBetween(counts.ors, first.end, second.start) > 0 || tokens[first.start - 1] === 'either') return true;
  return tokens[first.start - 1] === 'between' && countBetween(counts.ands, first.end, second.start) > 0;
}

/**
 * Running counts over a sentence's tokens, so that what lies between two positions is counted in one step rather
 * than read again for every pair of values (a sentence of many values made that the cube of its length).
 */
interface TokenCounts {
  /** Sentence marks: ".", ";", "?", "!". */
  stops: Int32Array;
  ors: Int32Array;
  ands: Int32Array;
  /** Tokens that carry meaning (not LIGHT). */
  heavy: Int32Array;
}

const countsByTokens = new WeakMap<string[], TokenCounts>();

function countsOf(tokens: string[]): TokenCounts {
  let counts = countsByTokens.get(tokens);
  if (!counts) {
    const n = tokens.length;
    counts = { stops: new Int32Array(n + 1), ors: new Int32Array(n + 1), ands: new Int32Array(n + 1), heavy: new Int32Array(n + 1) };
    for (let k = 0; k < n; k++) {
      const t = tokens[k];
      counts.stops[k + 1] = counts.stops[k] + (t === '.' || t === ';' || t === '?' || t === '!' ? 1 : 0);
      counts.ors[k + 1] = counts.ors[k] + (t === 'or' ? 1 : 0);
      counts.ands[k + 1] = counts.ands[k] + (t === 'and' ? 1 : 0);
      counts.heavy[k + 1] = counts.heavy[k] + (LIGHT.has(t) ? 0 : 1);
    }
    countsByTokens.set(tokens, counts);
  }
  return counts;
}

/** How many of the tokens in [from, to) are counted (none when the range is empty, as `slice` would give). */
function countBetween(prefix: Int32Array, from: number, to: number): number {
  const a = Math.min(Math.max(from, 0), prefix.length - 1);
  const b = Math.min(Math.max(to, 0), prefix.length - 1);
  return b > a ? prefix[b] - prefix[a] : 0;
}

/**
 * "No refund will be issued", "the replacement has not been booked": a negator next to a word naming the
 * event denies it; "to consider a $348 refund", "we might issue a refund" leave it undecided.
 */
function findDenial(about: string[], analyses: ReplyAnalysis[], anchors: string[] = [], keyAmounts: number[] = []): Evidence | undefined {
  const words = new Set(about.map((w) => w.toLowerCase()));
  const anchorWords = new Set(anchors.filter((w) => !w.includes(' ')).map((w) => w.toLowerCase()));
  for (const [reply, a] of analyses.entries()) {
    // ("2026-11-17: $24.16 pro-rated charge for 3 added seats - expected, not refunded": a denial in a sentence whose
    // figures are none of the key's is said of those figures.)
    const otherFigures = new Set<number>();
    const keyFigures = new Set<number>();
    for (const m of a.mentions) if (m.value.kind === 'money') (keyAmounts.some((x) => Math.abs(x - (m.value as { amount: number }).amount) < 0.005) ? keyFigures : otherFigures).add(m.sentence);
    for (const [si, s] of a.sentences.entries()) {
      if (!USABLE.has(s.status)) continue;
      if (keyAmounts.length > 0 && otherFigures.has(si) && !keyFigures.has(si)) continue;
      // (Indexed: an entries() pair is a new array for every token.)
      for (let j = 0; j < s.tokens.length; j++) {
        const t = s.tokens[j];
        if (!words.has(t)) continue;
        // (A question asks about the event, it does not hedge it: "Would you like the delivery marked for anyone?")
        // ("Standard ground and express would both arrive after your set-up, so the replacement is going by overnight": an
        // alternative weighed as the reason for what was done, no doubt about it.)
        // ("…since another failed attempt would push the unlock time back": what another event would do is no doubt of this one.)
        if (s.moods[j] === 'h' && s.tokens[s.tokens.length - 1] !== '?' && s.tokens.slice(Math.max(0, j - 4), j).some(isHedge) && !reasonFor(s.tokens, j) && !s.tokens.slice(Math.max(0, j - 7), j).some((w) => ANOTHER.has(w)) && !customersWish(s.tokens)) return { reply, sentence: si, status: s.status, mood: 'h' };
        if (s.moods[j] !== 'n') continue;
        // "no further refund will be issued", "we won't refund it a second time": another one is denied, not this one.
        if (ANOTHER.has(s.tokens[j - 1] ?? '') || againAfter(s.tokens, j)) continue;
        // "there was no successful sign-in from there" (of attempts that failed); "a reset link won't lift the lock", "the
        // lock cannot be lifted earlier": what is denied is another event or the event's undoing.
        // ("it won't lift the lock": an agent's undoing, the event word used transitively, is what is denied.)
        if (OTHER_OUTCOME.has(s.tokens[j - 1] ?? '') || undoingNear(s.tokens, j) || (UNDOING.has(t) && ['the', 'it', 'your', 'this', 'that'].includes(s.tokens[j + 1] ?? ''))) continue;
        // "the lock cannot be lifted earlier": the undoing denied before its time bounds the event, it does not deny it.
        if (UNDOING.has(t) && s.tokens.slice(j + 1, j + 4).some((w) => SOONER.has(w))) continue;
        // "Should the refund not appear on your statement, your card issuer can trace it": the event in a condition that
        // opens the sentence is supposed, not denied.
        if (inOpeningCondition(s.tokens, j)) continue;
        // "After that sign-in nobody changed your password": the event as the time of another, which is what is denied.
        if (s.tokens.slice(Math.max(0, j - 3), j).some((w) => EVENT_AS_TIME.has(w))) continue;
        // ("Result: all 7 were blocked - wrong password each time, no sign-in": the event's outcome denied after the event
        // is said, by an anchor of the claim said plainly before it.)
        if (anchorSaidBefore(s, j, anchorWords)) continue;
        // ("Standard ground could not guarantee arrival before Thursday 19 November, so we have dispatched…": what another
        // way could not do, given as the reason for what was done, denies nothing done.)
        if (reasonFor(s.tokens, j) && s.tokens.slice(Math.max(0, j - 4), j).some((w) => ['could', "couldn't", 'would', "wouldn't", "can't", 'cannot'].includes(w))) continue;
        const near = negatorNear(s, j);
        if (near && !deniesOnlyPart(s.tokens, j) && !habitual(s, j)) return { reply, sentence: si, status: s.status, mood: 'n' };
      }
    }
  }
  return undefined;
}

/** "If you'd rather have them delivered straight to the venue, let me know": a choice offered to the customer, no doubt. */
function customersWish(tokens: string[]): boolean {
  if (tokens[0] !== 'if' && tokens[0] !== 'should') return false;
  for (let k = 1; k < Math.min(tokens.length, 5); k++) if (['rather', 'prefer', 'wish', 'want', 'like'].includes(tokens[k])) return true;
  return false;
}

/** Whether one of the claim's one-word anchors is said plainly (mood 'a') earlier in the sentence than `j`. */
function anchorSaidBefore(s: AnalysedSentence, j: number, anchors: Set<string>): boolean {
  if (anchors.size === 0) return false;
  for (let k = 0; k < j; k++) if (anchors.has(s.tokens[k]) && s.moods[k] === 'a') return true;
  return false;
}

/** A denial within six words before `at` in its sentence part: "didn't want to lose time on a trace". */
function deniedJustBefore(s: AnalysedSentence, at: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - 6); k--) {
    if (/^[.;:,!?]$/.test(s.tokens[k])) return false;
    if (s.moods[k] === 'n') return true;
  }
  return false;
}

/** Whether ", so" (or "; so", ", which is why") follows within the sentence, up to 25 words on: what comes before is a reason. */
function reasonFor(tokens: string[], j: number): boolean {
  for (let k = j + 1; k < Math.min(tokens.length - 1, j + 25); k++) {
    if (tokens[k] === '.' || tokens[k] === '?' || tokens[k] === '!') return false;
    if ((tokens[k] === ',' || tokens[k] === ';' || tokens[k] === '-') && (tokens[k + 1] === 'so' || (tokens[k + 1] === 'which' && tokens[k + 2] === 'is' && tokens[k + 3] === 'why'))) return true;
  }
  return false;
}

/**
 * A negator in the clause of the word at j, just before it or up to five words after it. (A function of its own: a
 * closure over the position, in the loop over every token, made a context object for each.)
 */
function negatorNear(s: AnalysedSentence, j: number): boolean {
  return s.negators.some((k) => s.clauses[k] === s.clauses[j] && ((k < j && wordsBetween(s.tokens, k, j) <= 1) || (k > j && k - j <= 5)));
}

/** Words that open a condition at the head of a sentence ("If…", "Should the refund not…", "Unless…", "In case…"). */
const CONDITION_OPENERS = new Set(['if', 'should', 'unless', 'in', 'were', 'had']);

/** Whether the word at j stands in a condition that opens the sentence, before the comma that closes it. */
function inOpeningCondition(tokens: string[], j: number): boolean {
  const first = tokens[0] === 'and' || tokens[0] === 'but' ? 1 : 0;
  if (!CONDITION_OPENERS.has(tokens[first] ?? '') || (tokens[first] === 'in' && tokens[first + 1] !== 'case')) return false;
  for (let k = first + 1; k < j; k++) if (/^[,;:.!?]$/.test(tokens[k])) return false;
  return true;
}

/** Words that make the event named after them another outcome: "no successful sign-in". */
const OTHER_OUTCOME = new Set(['successful', 'completed']);
/** Verbs that undo an event: a denial of them denies no event ("won't lift the lock"). */
const UNDOING = new Set(['lift', 'lifts', 'lifted', 'lifting', 'release', 'releases', 'released', 'unlock', 'unlocks', 'unlocked', 'undo', 'reverse', 'reversed', 'end', 'ends', 'clear', 'clears', 'cleared', 'remove', 'removes', 'removed']);

/** An undoing verb within three words either side of the event word, in its clause. */
function undoingNear(tokens: string[], j: number): boolean {
  for (let k = Math.max(0, j - 3); k <= Math.min(tokens.length - 1, j + 3); k++) {
    if (k !== j && UNDOING.has(tokens[k])) return true;
  }
  return false;
}

/** "refund it again", "refund it a second time", "refunded twice": within four words after the event. */
function againAfter(tokens: string[], j: number): boolean {
  for (let k = j + 1; k <= j + 4 && k < tokens.length; k++) {
    if (tokens[k] === 'again' || tokens[k] === 'twice' || (tokens[k] === 'second' && tokens[k + 1] === 'time')) return true;
    if (/^[.;:,!?]$/.test(tokens[k])) return false;
  }
  return false;
}

/** Prepositions that make the event the time of what the clause says: "after that sign-in", "since the login". */
const EVENT_AS_TIME = new Set(['after', 'since', 'following', 'before', 'during', 'until', 'while', 'whilst']);
/** Words that make an undoing's denial a bound on its time: "can't be lifted earlier", "won't unlock it any sooner". */
const SOONER = new Set(['earlier', 'sooner', 'early', 'faster', 'quicker']);

/** Times said in the plural, of what happens as a rule: "at weekends", "on Sundays", "over bank holidays". */
const HABITUAL_TIMES = new Set(['weekends', 'saturdays', 'sundays', 'holidays', 'evenings', 'nights', 'weekdays']);

/**
 * "Couriers don't deliver at weekends", "there are no weekend deliveries": what never happens as a rule, said to
 * explain a date, not a denial of this event. The clause names a time in the plural, "at the weekend", or "weekend"
 * before the word.
 */
function habitual(s: AnalysedSentence, j: number): boolean {
  if (s.tokens[j - 1] === 'weekend') return true;
  for (let k = 0; k < s.tokens.length; k++) {
    if (s.clauses[k] !== s.clauses[j]) continue;
    if (HABITUAL_TIMES.has(s.tokens[k])) return true;
    // ("as they don't deliver at the weekend", "on a weekend": the weekend as such, in British and American wording.)
    if (s.tokens[k] === 'weekend' && ['the', 'a'].includes(s.tokens[k - 1]) && ['at', 'on', 'over'].includes(s.tokens[k - 2])) return true;
  }
  return false;
}

/** What a denial may bear on instead of the whole event: "we haven't refunded both charges", "not the original". */
const PART_OF_IT = [['both'], ['all'], ['twice'], ['again'], ['everything'], ['in', 'full'], ['the', 'original'], ['the', 'first'], ['the', 'other'], ['the', 'full']];

/**
 * "We haven't refunded both charges" or "we won't refund the original" deny a refund of all of it or of the other
 * one, not the refund: the event word followed closely by a whole or another part.
 */
function deniesOnlyPart(tokens: string[], j: number): boolean {
  for (let k = j + 1; k <= j + 2 && k < tokens.length; k++) {
    if (PART_OF_IT.some((part) => part.every((w, n) => tokens[k + n] === w))) return true;
  }
  return false;
}

const LIGHT = new Set(['be', 'been', 'a', 'an', 'any', 'the']);

/**
 * Words between two positions that carry meaning: "won't be a shipping credit" and "will not issue a refund" have
 * one; "will not be charged for the replacement" two, and denies the charge, not the replacement.
 */
function wordsBetween(tokens: string[], from: number, to: number): number {
  return countBetween(countsOf(tokens).heavy, from + 1, to);
}

/** Minutes after midnight of the times of day a deadline is written with. */
const NAMED_TIMES = wordTable<number>({
  noon: 720, midday: 720, lunchtime: 720, midnight: 1440, afternoon: 1080, evening: 1200, tonight: 1260, eod: 1020, cob: 1020,
});
const DEADLINE_WORDS = new Set(['by', 'before', 'until', 'till', 'at', 'around', 'in', 'than']);

/**
 * Whether the date is said with a later time than the deadline allows: "tomorrow, Friday 27 November, by 18:00",
 * "on the 27th in the afternoon", "end of day Friday". Looks a few words either side, within the sentence.
 */
function laterThan(tokens: string[], span: { start: number; end: number }, byTime: string): boolean {
  const [h, m] = byTime.split(':').map(Number);
  const limit = h * 60 + m;
  const from = Math.max(0, span.start - 4);
  const to = Math.min(tokens.length, span.end + 6);
  for (let k = from; k < to; k++) {
    if (/^[.;?!]$/.test(tokens[k]) && k >= span.end) break;
    if (!DEADLINE_WORDS.has(tokens[k - 1] ?? '') && !['end', 'close'].includes(tokens[k])) continue;
    const minutes = timeAt(tokens, k);
    if (minutes !== null && minutes > limit) return true;
  }
  return false;
}

function timeAt(tokens: string[], k: number): number | null {
  const t = tokens[k] ?? '';
  if (t === 'end' && tokens[k + 1] === 'of' && /^(day|business|the)$/.test(tokens[k + 2] ?? '')) return 1020;
  if (t === 'close' && tokens[k + 1] === 'of' && tokens[k + 2] === 'business') return 1020;
  if (t in NAMED_TIMES) return NAMED_TIMES[t];
  if (t === 'the' && (tokens[k + 1] ?? '') in NAMED_TIMES) return NAMED_TIMES[tokens[k + 1]];
  const clock = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m|p\.m)?$/.exec(t);
  if (!clock) return null;
  let hours = Number(clock[1]);
  const minutes = Number(clock[2] ?? 0);
  const suffix = clock[3] ?? (/^(am|pm|a\.m|p\.m)$/.test(tokens[k + 1] ?? '') ? tokens[k + 1] : undefined);
  if (suffix === undefined && clock[2] === undefined) return null; // "by 5" alone is no time of day
  if (suffix?.startsWith('p') && hours < 12) hours += 12;
  if (suffix?.startsWith('a') && hours === 12) hours = 0;
  return hours > 24 || minutes > 59 ? null : hours * 60 + minutes;
}

/**
 * "per <unit>", "for each <unit>", "apiece": the amount is a rate for each of several goods, not the amount itself.
 * The units are the task's goods (lexicon `rate_units`): "per incident" or "per year" is no rate of goods.
 */
function perUnit(tokens: string[], end: number, lexicon: Lexicon): boolean {
  if (tokens[end] === 'apiece') return true;
  const noun = tokens[end] === 'per' || tokens[end] === 'each' ? tokens[end + 1] : tokens[end] === 'for' && tokens[end + 1] === 'each' ? tokens[end + 2] : undefined;
  return noun !== undefined && lexicon.rateUnits.has(noun);
}

const DAY = 86_400_000;

/** Business days from the clock's day to a date (weekends skipped; no holiday calendar). */
export function businessDaysUntil(clock: string, date: string): number {
  const from = Date.UTC(Number(clock.slice(0, 4)), Number(clock.slice(5, 7)) - 1, Number(clock.slice(8, 10)));
  const to = Date.parse(`${date}T00:00:00Z`);
  if (to < from) return -1;
  // Counted by whole weeks, then the days left: a date thousands of years ahead ("9999-12-31") costs no more to
  // count than tomorrow (day by day, each such date cost millions of steps).
  const days = Math.floor((to - from) / DAY);
  if (!(days > 0)) return 0;
  const weeks = Math.floor(days / 7);
  const first = new Date(from).getUTCDay();
  let count = weeks * 5;
  for (let k = 1; k <= days - weeks * 7; k++) {
    const weekday = (first + k) % 7;
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

/**
 * A window of business days written as the dates it spans: "between Friday 27 November and Tuesday 1 December"
 * is 5-7 business days from Friday 20 November. Two dates in a sentence joined by "and", "to" or a dash.
 */
function windowsAsDates(claim: Extract<ReplyClaim, { kind: 'duration' }>, analysis: ReplyAnalysis): ClaimSpan[] {
  if (claim.unit !== 'business_day') return [];
  const out: ClaimSpan[] = [];
  const dates = analysis.mentions.filter((m) => m.value.kind === 'date');
  for (let i = 0; i + 1 < dates.length; i++) {
    const [a, b] = [dates[i], dates[i + 1]];
    if (a.sentence !== b.sentence) continue;
    const between = analysis.sentences[a.sentence].tokens.slice(a.end, b.start);
    if (!(between.length === 1 && ['and', 'to', '-', 'through', 'until'].includes(between[0]))) continue;
    const window = {
      kind: 'duration' as const,
      min: businessDaysUntil(analysis.clock, (a.value as { date: string }).date),
      max: businessDaysUntil(analysis.clock, (b.value as { date: string }).date),
      unit: 'business_day' as const,
    };
    const span = { sentence: a.sentence, start: a.start, end: b.end };
    if (sameValue(claimValue(claim), window)) out.push({ ...span, match: true, nearMiss: false });
    else if ((claim.near_misses ?? []).some((n) => sameValue(n, window))) out.push({ ...span, match: false, nearMiss: true });
  }
  return out;
}

/** "$340.00, $348.00 and $360.00": three or more values of one kind in a list, the declared one among them. */
function inAList(tokens: string[], spans: ClaimSpan[]): boolean {
  if (spans.length < 3 || !spans.some((sp) => sp.match)) return false;
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  let run = 1;
  for (let k = 1; k < ordered.length; k++) {
    const between = tokens.slice(ordered[k - 1].end, ordered[k].start);
    run = between.length <= 2 && between.every((t) => t === ',' || t === 'and' || t === 'or') ? run + 1 : 1;
    if (run >= 3) return true;
  }
  return false;
}

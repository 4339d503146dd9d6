import type { AnalysedSentence } from './analyse';
import type { ActionClaim } from './claim.schema';
import { AUXILIARIES, isVerbish } from './english';
import { INSTRUCTION_VERBS, NOUN_READING as SUPPORT_NOUN_READING, REVERSALS as SUPPORT_REVERSALS, VERB_SYNONYMS } from '../support-vocabulary';
import { formsOf, objectVariants, type VerbForm } from './morphology';
import { firstPhraseAt, indexPhrases, phraseWithPossessiveAt } from './phrases';
import { NO_LEXICON, type Lexicon } from './lexicon';
import { tokenize } from './text';

/**
 * Finds an action stated on an object in a sentence: a declared verb (any form, active or passive, or its
 * noun) within twelve tokens of a declared object, or of "it"/"them" standing for an object named in this or
 * the previous two sentences. "The API keys created in the last 72 hours, including sync-prod-2, have been
 * revoked", "account locked", "we've locked it", "a video identity check" all count.
 *
 * A base form says nothing by itself ("Lock the account" is an instruction): it counts when "will", "'ll",
 * "going to", "need to" or a purpose "to" governs it, and is hypothetical under "may", "could", "would",
 * "should", or after "hope to", "want to", "whether to". Qualifiers must stand near the pair, not across a
 * coordinated new predicate ("your current session only and revoked all keys" does not give "all" to the
 * session); a qualifier, verb or object offered as one of several ("by email, phone or video call", "locked or
 * will soon lock") is a conflicting value.
 */

export interface ActionHit {
  sentence: number;
  /** Stance character that governs the hit (see polarity.ts), or 'c' for a bare instruction. */
  mood: string;
  /** The pair was offered as one alternative among others. */
  disjunct: boolean;
  /** A later reversal: "unlocked it again", "reinstated them". */
  reversed: boolean;
}

interface Matcher {
  verbs: { head: Map<string, VerbForm>; particle: string | null }[];
  /** The verbs (in their order) that have each written form: only those are tried at a token. */
  verbsByForm: Map<string, Matcher['verbs']>;
  phrasalNouns: Set<string>;
  objects: string[][];
  qualifiers: string[][] | null;
}

const matchers = new Map<string, Matcher>();

/** The matcher of each claim object, per lexicon: a task's claims are judged again at every step. */
const matchersOf = new WeakMap<ActionClaim, WeakMap<Lexicon, Matcher>>();

function matcherFor(claim: ActionClaim, lexicon: Lexicon): Matcher {
  let byLexicon = matchersOf.get(claim);
  if (!byLexicon) matchersOf.set(claim, (byLexicon = new WeakMap()));
  let m = byLexicon.get(lexicon);
  if (!m) byLexicon.set(lexicon, (m = buildMatcher(claim, lexicon)));
  return m;
}

function buildMatcher(claim: ActionClaim, lexicon: Lexicon): Matcher {
  const heads = claim.verbs.map((v) => v.toLowerCase().split(/\s+/)[0]);
  const key = JSON.stringify([claim.verbs, claim.objects, claim.qualifiers, heads.map((h) => lexicon.actionNouns.get(h) ?? [])]);
  let m = matchers.get(key);
  if (m) return m;
  const phrasalNouns = new Set<string>();
  const declared = [...new Set(claim.verbs.flatMap((v) => [v, ...(VERB_SYNONYMS[v.toLowerCase()] ?? [])]))];
  const verbs = declared.map((v) => {
    const [head, particle] = v.toLowerCase().split(/\s+/);
    const forms = formsOf(head, lexicon.actionNouns.get(head));
    if (particle) {
      // "sign out" as one word: "sign-out", "signout"; "log out": "logout".
      for (const [f, kind] of forms) if (kind === 'noun') phrasalNouns.add(f);
      for (const [f, kind] of [...forms]) if (kind === 'noun') forms.delete(f);
    }
    return { head: forms, particle: particle ?? null };
  });
  const verbsByForm = new Map<string, Matcher['verbs']>();
  for (const v of verbs) {
    for (const form of v.head.keys()) {
      const list = verbsByForm.get(form);
      if (list) list.push(v);
      else verbsByForm.set(form, [v]);
    }
  }
  m = {
    verbs,
    verbsByForm,
    phrasalNouns,
    // Longest first, so "video call" is found as a whole rather than as "video".
    objects: longestFirst(claim.objects.flatMap((o) => objectVariants(tokenize(o)))),
    // ("within the last seventy-two hours": a qualifier's figure also in words.)
    qualifiers: claim.qualifiers ? longestFirst(claim.qualifiers.flatMap((q) => [q, ...spelledOut(q)]).flatMap((q) => objectVariants(tokenize(q)))) : null,
  };
  if (matchers.size >= 256) matchers.clear();
  matchers.set(key, m);
  return m;
}

const UNITS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** "72 hours" as "seventy-two hours" and "seventy two hours": a qualifier's leading figure (below 100) in words. */
function spelledOut(phrase: string): string[] {
  const m = /^(\d{1,2})(\s.*)$/.exec(phrase);
  if (!m) return [];
  const n = Number(m[1]);
  if (n === 0) return [];
  if (n < 20) return [UNITS[n] + m[2]];
  const tens = TENS[Math.floor(n / 10)];
  const unit = UNITS[n % 10];
  return unit ? [`${tens}-${unit}${m[2]}`, `${tens} ${unit}${m[2]}`] : [tens + m[2]];
}

function longestFirst(phrases: string[][]): string[][] {
  return [...phrases].sort((a, b) => b.length - a.length);
}

function phraseAt(tokens: string[], i: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (tokens[i + k] !== phrase[k]) return false;
  return true;
}

/** A phrase, its last word possibly with "'s" ("your account's locked", "the account's been locked"). */
const objectAt = phraseWithPossessiveAt;

const LETTERS_ONLY = /^[a-z]+$/;

function findPhrases(tokens: string[], phrases: string[][]): { start: number; end: number }[] {
  const index = indexPhrases(phrases);
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const p = firstPhraseAt(index, tokens, i);
    if (p) {
      out.push({ start: i, end: i + p.length });
      continue;
    }
    // ("a fresh password-reset link" for "reset link": a phrase whose first word ends a hyphenated compound.)
    const dash = tokens[i].lastIndexOf('-');
    if (dash > 0 && dash < tokens[i].length - 1 && tokens[i].split('-').every((part) => LETTERS_ONLY.test(part))) {
      const head = tokens[i].slice(dash + 1);
      for (const phrase of index.get(head) ?? []) {
        if (phrase.length > 1 && phrase.every((w, k) => k === 0 || tokens[i + k] === w)) {
          out.push({ start: i, end: i + phrase.length });
          break;
        }
      }
    }
  }
  return out;
}

const NO_VERBS: Matcher['verbs'] = [];

interface VerbHit {
  at: number;
  end: number;
  form: VerbForm;
}

const VERB_OF_A_SUBJECT = new Set(['reached', 'arrived', 'was', 'is', 'were', 'has', 'had', 'went', 'came', 'landed', 'bounced', 'expired', 'never', 'got', 'sat', 'ended']);
const EMAIL_AS_NOUN_AFTER = new Set(['the', 'a', 'an', 'this', 'that', 'your', 'our', 'its', 'reset', 'password', 'confirmation', 'verification', 'alert', 'earlier', 'first', 'previous', 'last', 'old', 'original']);

/** What may stand just before the first word of a clause. */
const CLAUSE_OPENERS = new Set(['.', ';', ':', '-', 'please', 'then', 'now', 'just', 'kindly', 'also', 'next', 'first']);

function findVerbs(tokens: string[], m: Matcher): VerbHit[] {
  const out: VerbHit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (m.phrasalNouns.has(t)) { out.push({ at: i, end: i + 1, form: 'noun' }); continue; }
    // ("The reset email reached you but its link was never opened": "email" after a determiner or a noun, as the
    // subject of the verb after it, is the thing.)
    if ((t === 'email' || t === 'emails') && EMAIL_AS_NOUN_AFTER.has(tokens[i - 1] ?? '') && VERB_OF_A_SUBJECT.has(tokens[i + 1] ?? '')) continue;
    for (const v of m.verbsByForm.get(t) ?? NO_VERBS) {
      let form = v.head.get(t);
      if (!form) continue;
      // "Set up MFA", "then set up the call": a verb whose past is its base ("set", "put") heads an instruction where its
      // clause opens with it.
      if (form === 'done' && (v.head.has(t + 's') || v.head.has(t + 'es')) && CLAUSE_OPENERS.has(tokens[i - 1] ?? '.')) form = 'base';
      if (v.particle) {
        // The particle may follow at once or after the object: "signed everyone out", "signed you and everyone else out".
        let k = i + 1;
        while (k < tokens.length && k <= i + 6 && tokens[k] !== v.particle && !/^[.;:,]$/.test(tokens[k])) k++;
        if (tokens[k] !== v.particle) continue;
        out.push({ at: i, end: k + 1, form });
      } else {
        out.push({ at: i, end: i + 1, form });
      }
      break;
    }
  }
  return out;
}

const HEDGES_BEFORE_TO = new Set(['hope', 'hoping', 'want', 'wants', 'like', 'wish', 'consider', 'considering', 'whether', 'try', 'trying', 'plan', 'planning', 'ask', 'asked', 'prefer']);
const FUTURE = new Set(['will', 'shall', 'must']);

/** What governs a base form: 'a' (future or purpose), 'h' (modal or hedge), or 'c' (bare: an instruction). */
function governBase(tokens: string[], at: number): string {
  // Far enough for a list of actions under one "will" ("our team will lock..., sign out..., and revoke..."), never past the sentence.
  for (let k = at - 1; k >= Math.max(0, at - 24); k--) {
    const t = tokens[k];
    if (t === '.' || t === ';' || t === '?' || t === '!') break;
    if (FUTURE.has(t) || t.endsWith("'ll")) return 'a';
    // "after we verify your identity", "once our team confirms it's you": a finite present with its subject.
    if (k === at - 1 && ['we', 'they', 'team', 'i'].includes(t)) return 'a';
    // ("…, but we always verify it's really you on a video call first": an adverb of frequency between them.)
    if (k === at - 2 && ['we', 'they', 'team', 'i'].includes(t) && ['always', 'only', 'also', 'usually', 'normally', 'first'].includes(tokens[at - 1])) return 'a';
    if (['may', 'might', 'could', 'would', 'should', 'can', 'cannot'].includes(t) || /'d$/.test(t)) return 'h';
    if (t === 'to') {
      const before = tokens[k - 1] ?? '';
      // "you need to lock your account": the customer's to-do, not ours.
      if (['need', 'needs', 'have', 'has'].includes(before) && tokens.slice(Math.max(0, k - 4), k - 1).some((w) => /^you('ll|'d)?$/.test(w))) return 'u';
      // "To secure the account, we've reset...": a sentence-initial purpose is the aim, not what was done.
      if (k === 0) return 'c';
      if (['going', 'need', 'needs', 'have', 'has', 'about'].includes(before)) return 'a';
      if (HEDGES_BEFORE_TO.has(before)) return 'h';
      // "then set up the video call to verify identity": the aim of an instruction is as much still to do as it is.
      return purposeOfInstruction(tokens, k) ? 'c' : 'a';
    }
    if (t === 'did' || t === 'do' || t === 'does') return 'a';
  }
  return 'c';
}

/** Words that may stand before an instruction's verb at the head of its clause. */
const BEFORE_AN_INSTRUCTION = new Set(['then', 'and', 'also', 'next', 'now', 'first', 'just', 'kindly']);
/** Verbs an instruction to a colleague opens with, besides a runbook's own (support-vocabulary.ts). */
const INSTRUCTING: ReadonlySet<string> = new Set([
  ...INSTRUCTION_VERBS, 'lock', 'sign', 'revoke', 'arrange', 'schedule', 'book', 'turn', 're-enable', 'enable', 'reset', 'issue',
  'refund', 'cancel', 'ship', 'create', 'get', 'go', 'make', 'contact', 'call', 'have', 'give', 'put', 'start', 'raise', 'file',
]);

/**
 * Whether the verb a purpose "to" at k hangs on is an instruction: its clause (back to a mark) opens with "please",
 * or with a verb of instruction in its base form, past "then", "and", "also" ("; then set up the video call to
 * verify identity", "please book a call to verify…"). "Call booked to verify your identity" reports it.
 */
function purposeOfInstruction(tokens: string[], k: number): boolean {
  let start = k - 1;
  while (start > 0 && start > k - 13 && !/^[.;:,!?]$/.test(tokens[start - 1])) start--;
  if (start > 0 && !/^[.;:,!?]$/.test(tokens[start - 1])) return false;
  let w = start;
  let pleased = false;
  while (w < k && (BEFORE_AN_INSTRUCTION.has(tokens[w]) || tokens[w] === 'please')) pleased ||= tokens[w++] === 'please';
  if (w >= k) return false;
  if (pleased) return true;
  const next = tokens[w + 1] ?? '';
  return INSTRUCTING.has(tokens[w]) && !/(ed|en)$/.test(next) && !AUXILIARIES.has(next) && next !== "'s";
}

/** What may stand between a pronoun subject and its passive participle: "it is currently locked", "it has been locked". */
const PASSIVE_BETWEEN = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'been', 'be', 'will', 'now', 'currently', 'already', 'also', 'temporarily', 'automatically', 'still']);

/** Participles that say where a thing is shown, not what was done to it: "sessions are listed under Settings". */
const SHOWN = new Set(['listed', 'shown', 'found', 'seen', 'viewed', 'reviewed', 'checked', 'managed', 'displayed', 'visible', 'kept', 'stored']);

/** Labels whose value is the state of what a list is about: "- Status: locked", "* Outcome: all blocked". */
const STATUS_LABELS = new Set(['status', 'state', 'outcome', 'result']);

// ("the account did exactly what it's built to do and locked itself": "itself" for the object named before.)
const PRONOUNS = new Set(['it', 'them', 'they', 'its', 'itself']);
const DEMONSTRATIVES = new Set(['that', 'this']);
/** What may follow a demonstrative standing for a noun: "opened that with the carrier", "done this just now". */
const AFTER_DEMONSTRATIVE = new Set(['with', 'for', 'to', 'on', 'just', 'now', 'today', 'already', 'up', '.', ',', '-', ';', 'and', 'as', 'at', 'this', 'immediately', 'straight']);
/** Past forms only: a future "we will unlock it once verified" is the plan, not an undoing. */
const REVERSALS: ReadonlySet<string> = new Set(SUPPORT_REVERSALS);
/** Words skipped between a reversal and its object; the task adds its own modifiers (lexicon `incidental_modifiers`). */
const SKIPPABLE = new Set(['the', 'your', 'all', 'its', 'those', 'these', 'every', 'each', 'again', 'our']);

/** Whether an "or" offers this span as one option among several ("all or some sessions", "locked or will lock"). */
function disjunctAround(tokens: string[], start: number, end: number, before: number, after: number): boolean {
  for (let k = start - 1; k >= Math.max(0, start - before); k--) {
    if (/^[.;?!]$/.test(tokens[k])) break;
    if (tokens[k] === 'or' || tokens[k] === 'either') return true;
  }
  for (let k = end; k < Math.min(tokens.length, end + after); k++) {
    if (/^[.;?!]$/.test(tokens[k])) break;
    if (tokens[k] === 'or') return true;
  }
  return false;
}

/**
 * Whether every "or" around an object span (the window disjunctAround reads) stands between two of the claim's
 * objects: "spam or junk folder", "spam/junk or promotions"… is one place said twice, not a choice between rivals.
 */
function orJoinsSynonyms(tokens: string[], span: { start: number; end: number }, objects: readonly string[]): boolean {
  const words = objects.flatMap((o) => o.toLowerCase().split(/\s+/));
  const near = [];
  for (let k = Math.max(0, span.start - 2); k < Math.min(tokens.length, span.end + 1); k++) if (tokens[k] === 'or' || tokens[k] === 'either') near.push(k);
  return near.length > 0 && near.every((k) => tokens[k] === 'or' && words.includes(tokens[k - 1] ?? '') && words.includes(tokens[k + 1] ?? ''));
}

const SUBJECT_PRONOUNS = new Set(['we', 'i', 'you', 'they', 'it', 'he', 'she']);

/** ", and we have revoked": a new clause with its own subject separates a verb from an earlier object. */
function newSubjectBetween(tokens: string[], a: number, b: number): boolean {
  for (let k = a; k < b; k++) {
    if (['and', 'but', 'so', ',', 'then'].includes(tokens[k]) && (SUBJECT_PRONOUNS.has(tokens[k + 1]) || /^(we|i|you|they|it)'/.test(tokens[k + 1] ?? ''))) return true;
    // ("sessions are shown under Settings > API, where keys can be revoked": a place's clause with a noun of its own
    // for subject; "…, where they can be signed out" still points back.)
    if (tokens[k] === 'where' && k + 1 < b && /^[a-z]+$/.test(tokens[k + 1] ?? '') && !SUBJECT_PRONOUNS.has(tokens[k + 1]) && !['can', 'could', 'will', 'would', 'is', 'are'].includes(tokens[k + 1])) return true;
  }
  return false;
}

/** A new coordinated predicate between two positions: ", and revoked", "and signed". */
function predicateBetween(tokens: string[], a: number, b: number): boolean {
  for (let k = a + 1; k < b; k++) {
    if (['and', 'or', 'but', ','].includes(tokens[k]) && isVerbish(tokens[k + 1] ?? '') && k + 1 < b) return true;
  }
  return false;
}

export function findActions(claim: ActionClaim, sentences: AnalysedSentence[], lexicon: Lexicon = NO_LEXICON): ActionHit[] {
  const m = matcherFor(claim, lexicon);
  const hits: ActionHit[] = [];
  // The objects named in each sentence, found once: a pronoun looks back two sentences, and many pronouns must not
  // read those sentences again each.
  const objectsIn: { start: number; end: number }[][] = [];
  const objectsOf = (k: number) => (objectsIn[k] ??= findPhrases(sentences[k].tokens, m.objects));
  const qualifiers = m.qualifiers ? new QualifierScan(sentences, m.qualifiers) : null;
  for (let si = 0; si < sentences.length; si++) {
    const s = sentences[si];
    const tokens = s.tokens;
    // "All your active sessions are under Settings > Security", "Active sessions: Settings > Security": advice on
    // where to find something, told as where it is.
    if (claim.advice === true && qualifiers) {
      const found = whereItIs(tokens, objectsOf(si), qualifiers.hitsIn(si));
      // ("Should you wish to verify this yourself, all of your active sessions are shown under Settings > Security": where
      // it is, told for the customer's own wish, is still told.)
      const mood = s.moods[found] === 'a' || s.moods[found] === 'c' || (s.moods[found] === 'h' && forTheirWish(tokens)) ? 'a' : s.moods[found];
      if (found >= 0) hits.push({ sentence: si, mood, disjunct: false, reversed: false });
    }
    const verbs = findVerbs(tokens, m);
    if (verbs.length === 0) continue;
    const objects = objectsOf(si);
    // "it" stands for one thing: "I can see both renewal payments ... I've refunded it" is not about both.
    // ("Sessions: Settings > Security. Don't recognise one? Click Sign out on it": "one" of them picks one out.)
    // (Only where a condition or question picks it: "if one isn't yours", "don't recognise one?"; "the second one was
    // a duplicate, so I've refunded it" is not both payments.)
    const picks = (tokens: string[]) => (tokens.includes('if') || tokens[tokens.length - 1] === '?') && tokens.some((t, k) => (t === 'one' || t === 'any') && !ORDINAL_OR_DETERMINER.has(tokens[k - 1] ?? ''));
    const oneOfThem = [0, 1].some((d) => si - d >= 0 && picks(sentences[si - d].tokens));
    const fits = (pronoun: string, words: string[], o: { end: number }) => !['it', 'its'].includes(pronoun) || !/[^s]s$/.test(words[o.end - 1]) || oneOfThem;
    const objectEarlier = (pos: number) =>
      objects.some((o) => o.end <= pos && fits(tokens[pos], tokens, o)) ||
      [1, 2].some((d) => si - d >= 0 && objectsOf(si - d).some((o) => fits(tokens[pos], sentences[si - d].tokens, o)));
    // ("one", "any", "each" stand for one of several: a plural object may be theirs.)
    const firstObjectEnd = objects.reduce((min, o) => Math.min(min, o.end), Infinity);
    const namedBefore = [1, 2].some((d) => si - d >= 0 && objectsOf(si - d).length > 0);
    const objectEarlierAny = (pos: number) => firstObjectEnd <= pos || namedBefore;
    for (const v of verbs) {
      // ("we'll send a reset link and advise you…": a noun-reading verb before a noun it modifies names that thing, not the act.)
      if (NOUN_READING.has(tokens[v.at]) && DETERMINERS.has(tokens[v.at - 1] ?? '') && MODIFIED_NOUNS.has(tokens[v.at + 1] ?? '')) continue;
      let best: { start: number; end: number } | null = null;
      for (const o of objects) {
        // "signed every active session out": the object between the verb and its particle.
        const between = o.start > v.at && o.end < v.end;
        // "Both API keys - etl-prod-9 and mirror-bot-9, the only ones created this week - have been revoked": an aside
        // between dashes or brackets is read past, and what it names is the noun it hangs on.
        const aside = o.end <= v.at ? asideBefore(tokens, v.at) : null;
        if (aside && o.start > aside.open && o.end <= aside.close && aside.open > 0 && !/^[.;:,]$/.test(tokens[aside.open - 1])) {
          if (v.at - aside.close <= 4 && !newSubjectBetween(tokens, aside.close, v.at)) best ??= o;
          continue;
        }
        const gap = between ? 0 : o.start >= v.end ? o.start - v.end : v.at - o.end - (aside && o.end <= aside.open ? aside.close - aside.open + 1 : 0);
        if (gap > 12 || gap < -1) continue;
        // "MFA was disabled on your account": a noun after a preposition is where it happened, not what was acted on.
        const nounReading = v.form === 'noun' || (NOUN_READING.has(tokens[v.at]) && DETERMINERS.has(tokens[v.at - 1] ?? ''));
        // (Before the verb too: "MFA was disabled on your account" does not make the account its subject.)
        // ("arranged for your identity to be verified": "for" introduces the subject of what follows, not a place.)
        const places = o.start >= v.end ? PLACES_AFTER_VERB : PLACES_BEFORE_VERB;
        // ("look in your spam folder", "peek at your sessions": a verb of looking takes its object with "in" or "at".)
        const preposition = prepositionBefore(tokens, o.start);
        const lookedInto = o.start >= v.end && LOOKING.test(tokens[v.at]) && (preposition === 'in' || preposition === 'at' || preposition === 'through');
        if (!nounReading && !lookedInto && places.includes(preposition)) continue;
        const [a, b] = between ? [v.at, v.at] : o.start >= v.end ? [v.end, o.start] : aside && o.end <= aside.open ? [aside.close + 1, v.at] : [o.end, v.at];
        if (tokens.slice(a, b).some((t) => t === ';' || t === '.') || newSubjectBetween(tokens, a, b)) continue;
        // "your current session only and revoked all keys": a verb opening a new predicate takes what follows.
        if (o.end <= v.at && ['and', 'or'].includes(tokens[v.at - 1])) continue;
        if (!best || Math.abs(o.start - v.at) < Math.abs(best.start - v.at)) best = o;
      }
      // "revoked all keys from the past two days, which means both 'a' and 'b'"; "…has been revoked; in your case this
      // is the key named 'a'": the object restated after the verb's own.
      best ??= restatedObject(tokens, v.end, objects);
      if (!best) {
        // "we've locked it", "reinstated them", "sign it out": a pronoun standing for an object named shortly before.
        if (v.end > v.at + 2 && PRONOUNS.has(tokens[v.at + 1]) && objectEarlier(v.at + 1)) best = { start: v.at + 1, end: v.at + 2 };
        for (let k = v.end; !best && k <= v.end + 1 && k < tokens.length; k++) {
          if (PRONOUNS.has(tokens[k]) && objectEarlier(k)) best = { start: k, end: k + 1 };
        }
        // "our process is a formal carrier trace - and I've opened that with Brisk Parcel": a demonstrative standing
        // alone after the verb.
        if (!best && DEMONSTRATIVES.has(tokens[v.end] ?? '') && AFTER_DEMONSTRATIVE.has(tokens[v.end + 1] ?? '.') && objectEarlier(v.end)) best = { start: v.end, end: v.end + 1 };
        if (!best && v.at > 0 && PRONOUNS.has(tokens[v.at - 2] ?? '') && objectEarlier(v.at - 2)) best = { start: v.at - 2, end: v.at - 1 };
        // ("Having reviewed your account, I can confirm that it has been locked", "it's been locked": the subject before
        // a perfect or future passive.)
        // ("we can confirm that it is currently locked": auxiliaries and adverbs between, three words at most.)
        let subject = v.at - 1;
        while (subject >= Math.max(0, v.at - 3) && PASSIVE_BETWEEN.has(tokens[subject])) subject--;
        if (!best && subject < v.at - 1 && subject >= 0 && PRONOUNS.has(tokens[subject]) && objectEarlier(subject)) best = { start: subject, end: subject + 1 };
        if (!best && v.at > 1 && ["it's", "they've"].includes(tokens[v.at - 2] ?? '') && tokens[v.at - 1] === 'been' && objectEarlier(v.at - 2)) best = { start: v.at - 2, end: v.at - 1 };
        // ("4 failed sign-ins from Frankfurt … All were blocked": "all", "both" opening the clause as its subject.)
        if (!best && v.at >= 2 && ['all', 'both'].includes(tokens[v.at - 2]) && ['were', 'are'].includes(tokens[v.at - 1]) && (v.at === 2 || /^[,;:-]$/.test(tokens[v.at - 3])) && objectEarlier(v.at - 2)) best = { start: v.at - 2, end: v.at - 1 };
        // ("Every one was blocked at the password", "each one was stopped": one of several named before, as the subject.)
        if (!best && v.at >= 3 && tokens[v.at - 2] === 'one' && ['every', 'each'].includes(tokens[v.at - 3]) && ['was', 'is'].includes(tokens[v.at - 1]) && (v.at === 3 || /^[,;:-]$/.test(tokens[v.at - 4])) && objectEarlier(v.at - 2)) best = { start: v.at - 3, end: v.at - 1 };
        // "these sometimes land in spam, so have a peek there": where one looks, "there" stands for a place named before.
        if (!best && tokens[v.end] === 'there' && LOOKING_OR_CHECKING.test(tokens[v.at]) && objectEarlier(v.end)) best = { start: v.end, end: v.end + 1 };
        // "hit its Sign out button", "use the Sign out button on any you don't recognise", "any you don't know, click
        // Sign out": "its", "one", "any" standing for an object named before, around the verb in its own segment.
        if (!best) best = anaphorNear(tokens, v, (k) => objectEarlierAny(k));
        // ("- Status: locked after too many failed sign-ins", "* Outcome: all blocked, none got in": a status label's
        // value, the act done, is said of the thing the list is about.)
        const colon = tokens[v.at - 1] === ':' ? v.at - 1 : tokens[v.at - 2] === ':' && ['all', 'both'].includes(tokens[v.at - 1]) ? v.at - 2 : -1;
        if (!best && v.form === 'done' && colon > 0 && STATUS_LABELS.has(tokens[colon - 1]) && (colon === 1 || /^[-*•]$/.test(tokens[colon - 2]))) best = { start: colon - 1, end: colon };
      }
      if (!best) continue;
      const lo = Math.min(v.at, best.start);
      const hi = Math.max(v.end, best.end);
      let qualifierDisjunct = false;
      if (qualifiers) {
        const q = findQualifier(sentences, si, lo, hi, qualifiers);
        if (!q) continue;
        // ("change it on any other site or service", "every other site/app": places named beside the one advised are
        // more of the same advice, not a rival to it; a denied place still is.)
        qualifierDisjunct = q.disjunct && (claim.advice !== true || q.denied);
      }
      // "needs to be locked", "must be revoked": still to do.
      const owed =
        v.form === 'done' &&
        tokens[v.at - 1] === 'be' &&
        (['must', 'should'].includes(tokens[v.at - 2] ?? '') || (tokens[v.at - 2] === 'to' && ['need', 'needs', 'have', 'has', 'ought'].includes(tokens[v.at - 3] ?? '')));
      const governed = v.form === 'base' ? combine(s.moods[v.at], baseStance(tokens, v.at)) : v.form === 'ing' ? combine(s.moods[v.at], ingStance(tokens, v.at)) : s.moods[v.at];
      // The customer's own to-do ("you need to lock your account") states nothing we did, except where the action
      // is done with them ("you'll need to verify your identity with us on a video call": lexicon `customer_own_objects`).
      const personal = tokens.slice(best.start, best.end).some((t) => lexicon.customerOwnObjects.has(t) || t === 'you' || t === "it's");
      const mood = owed
        ? 'h'
        : doneBySomeoneElse(tokens, v.at, lexicon) || attributive(tokens, v, best) || supposedThing(tokens, v, best)
        ? 'c'
        : governed === 'u'
        ? personal ? 'a' : 'c'
        : governed;
      // ("your spam or junk folder": an "or" between two of the claim's own objects names one thing twice.)
      const disjunct =
        qualifierDisjunct ||
        // ("please check Spam/Junk": the "or" after the verb joins two of the claim's objects, one place said twice.)
        (disjunctAround(tokens, v.at, v.end, 1, 2) && !orJoinsSynonyms(tokens, { start: v.end + 2, end: v.end + 3 }, claim.objects)) ||
        (disjunctAround(tokens, best.start, best.end, 2, 1) && !orJoinsSynonyms(tokens, best, claim.objects));
      // Advice is given as an instruction or a possibility: "Please check your spam folder", "you can review them".
      // Not when it is only offered ("would you like me to explain how to sign out…?") or hedged twice over ("perhaps
      // you could sign out…"): the customer is not told what to do.
      const withheld = claim.advice === true && offeredOrHedged(tokens, v.at);
      // ("you don't need to change your password anywhere else": advice denied is no advice.)
      const advised = claim.advice === true && (mood === 'c' || mood === 'h' || governed === 'u') && !withheld && mood !== 'n' && s.moods[v.at] !== 'n';
      // Advice is the customer's to follow: "we've signed out all sessions" is our act, not the advice to sign out
      // the ones they do not recognise.
      // ("all active sessions have been signed out": reported done, by us, in the passive.)
      // ("your account is now locked, all sessions are signed out": a state we brought about, in the present passive too.)
      // ("All your active sessions are listed under Settings > Security" still says where they are.)
      const stateWeMade = ['are', 'is'].includes(tokens[v.at - 1] ?? '') && !SHOWN.has(tokens[v.at]);
      const ourDoneAct =
        claim.advice === true && v.form === 'done' && mood === 'a' && (ourSubjectBefore(tokens, v.at) || ['been', 'was', 'were'].includes(tokens[v.at - 1] ?? '') || stateWeMade);
      // "a reset link won't lift the lock": the act as a noun, after an undoing that is denied, is neither said nor denied.
      const undoneDenied = mood === 'n' && nounUndone(tokens, v.at);
      // (Advice only offered, hedged or aimed at is neither given nor denied, whatever its verb's own mood.)
      // ("A reset link was already sent to you last week on your earlier ticket", "we sent you a link yesterday": an act
      // of an earlier occasion is not the one this ticket needs.)
      const earlier = claim.advice !== true && mood === 'a' && (earlierOccasion(tokens, v.at) || laterOccasion(tokens, v.at));
      hits.push({ sentence: si, mood: advised ? 'a' : ourDoneAct || withheld || undoneDenied || earlier ? 'c' : mood, disjunct, reversed: false });
    }
  }
  for (const r of findReversals(sentences, m, lexicon)) hits.push(r);
  return hits;
}

/** Verbs of being somewhere: "are all listed under", "can be found in", "is shown under". */
const WHERE_VERBS = new Set(['are', 'is', 'listed', 'shown', 'found', 'visible', 'kept', 'live', 'sit', 'appear', 'appears']);
const WHERE_PREPOSITIONS = new Set(['under', 'in', 'at', 'on', ':', 'via', 'inside']);

/**
 * The object's position where a sentence says where it is, the place being one of the claim's qualifiers: an object,
 * within six words a verb of being somewhere ("are all listed", "you have is shown") and a preposition, or straight
 * a colon, then the qualifier. -1 where none is.
 */
function whereItIs(tokens: string[], objects: { start: number; end: number }[], places: { start: number; end: number }[]): number {
  if (places.length === 0) return -1;
  const starts = new Set(places.map((p) => p.start));
  for (const o of objects) {
    let being = false;
    for (let k = o.end; k < Math.min(tokens.length, o.end + 7); k++) {
      const t = tokens[k];
      if (WHERE_VERBS.has(t)) being = true;
      else if (WHERE_PREPOSITIONS.has(t) && (being || (t === ':' && k === o.end))) {
        let at = k + 1;
        while (['the', 'your', 'our'].includes(tokens[at] ?? '')) at++;
        if (starts.has(at)) return o.start;
        break;
      } else if (/^[.;,!?()-]$/.test(t) || t === 'not' || /n't$/.test(t)) break;
    }
  }
  return -1;
}

const ORDINAL_OR_DETERMINER = new Set(['the', 'a', 'first', 'second', 'third', 'other', 'this', 'that', 'which', 'no', 'each', 'every', 'last', 'new', 'old', 'only', 'earlier', 'later']);

/** Words that stand for an object named before: "its Sign out button", "on any you don't recognise", "one of them". */
const ANAPHORS = new Set(['its', 'one', 'any', 'each', 'ones', 'those', 'both']);

/** "one", "any" standing alone for a noun ("if one isn't yours"), not "the second one", "that one". */
function standsFor(tokens: string[], k: number): boolean {
  // ("All three were blocked", "all 4 were stopped": a count after "all" stands for the objects counted before.)
  if (tokens[k - 1] === 'all' && (COUNTED.has(tokens[k]) || /^\d{1,2}$/.test(tokens[k]))) return true;
  return ANAPHORS.has(tokens[k]) && tokens[k] !== 'its' && !ORDINAL_OR_DETERMINER.has(tokens[k - 1] ?? '');
}
const COUNTED = new Set(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'of']);

/**
 * An anaphor for the verb's object within its segment: "its" just before the verb, "one", "any", "each" up to eight
 * words before it or three after it (past "button", "on"), with no hard mark between. Null where there is none.
 */
function anaphorNear(tokens: string[], v: { at: number; end: number }, earlier: (k: number) => boolean): { start: number; end: number } | null {
  if (tokens[v.at - 1] === 'its' && earlier(v.at - 1)) return { start: v.at - 1, end: v.at };
  // ("press Sign out next to it": "it" after a short preposition, as "one", "any" stand.)
  for (let k = v.end; k < Math.min(tokens.length, v.end + 4); k++) {
    if (/^[.;:!?]$/.test(tokens[k])) break;
    if ((tokens[k] === 'it' || tokens[k] === 'them') && ['to', 'beside', 'by', 'for', 'on'].includes(tokens[k - 1]) && earlier(k)) return { start: k, end: k + 1 };
    if (standsFor(tokens, k) && earlier(k)) return { start: k, end: k + 1 };
  }
  for (let k = v.at - 1; k >= Math.max(0, v.at - 8); k--) {
    if (/^[.;:!?]$/.test(tokens[k])) break;
    if (standsFor(tokens, k) && earlier(k)) return { start: k, end: k + 1 };
  }
  return null;
}

/** "we've locked your account, signed out all sessions": we (or I) are the subject of the verb's predicate. */
function ourSubjectBefore(tokens: string[], at: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - 12); k--) {
    if (/^[.;:!?]$/.test(tokens[k])) return false;
    if (/^(we|i)('ve|'d|'ll)?$/.test(tokens[k])) return true;
  }
  return false;
}

/** A closed aside ending just before `at`: "- … -" or "( … )", as token positions of its marks. */
function asideBefore(tokens: string[], at: number): { open: number; close: number } | null {
  let close = at - 1;
  while (close > 0 && close >= at - 4 && tokens[close] !== '-' && tokens[close] !== ')') close--;
  if (close < 1 || (tokens[close] !== '-' && tokens[close] !== ')')) return null;
  const opener = tokens[close] === ')' ? '(' : '-';
  for (let k = close - 1; k >= Math.max(0, close - 20); k--) {
    if (tokens[k] === '.' || tokens[k] === ';') return null;
    if (tokens[k] === opener) return { open: k, close };
  }
  return null;
}

/** What restates the object just acted on: ", which means", "namely", "; in your case this is", "(…)". */
const RESTATEMENTS: readonly (readonly string[])[] = [
  [',', 'which', 'means'], [',', 'which', 'is'], [',', 'which', 'are'], [',', 'namely'], [',', 'i.e'], ['namely'], ['i.e'],
  [',', 'that', 'is'], [';', 'in', 'your', 'case'], [',', 'in', 'your', 'case'], [',', 'specifically'], ['('], [':'],
  // ("revoked all API keys created in the past 24 hours - in your case that's just ops-bot-6 - so…": a dash opens one too.)
  ['-', 'in', 'your', 'case'], ['-', 'that', 'is'], ['-', "that's"], ['-', 'namely'], ['-', 'i.e'], ['-', 'specifically'], ['-', 'which', 'is'],
  // "All API keys created in the last 72 hours have been revoked; this comprises the key 'ci-bot-3'".
  [';', 'this', 'comprises'], [';', 'this', 'includes'], [';', 'this', 'is'], [';', 'that', 'is'], [';', 'these', 'are'],
  [';', 'namely'], [',', 'including'], [',', 'this', 'being'], [';', 'this', 'means'], [';', 'that', 'means'],
  [';', 'this', 'concerns'], [';', 'this', 'covers'], [';', 'this', 'affects'], [';', 'these', 'are'], [';', 'that', 'covers'], [',', 'namely'],
];

/** Whose account a restatement may cite first: "; according to the event log, this is…", "; per the log this is…". */
const SOURCES_CITED = new Set(['according', 'per', 'judging', 'going']);

/**
 * Where the words of a restatement opening at k end, -1 where none opens there. A clause after ";" or "," may cite
 * its source before it restates ("; according to the event log this is the key named…": up to six words, to the
 * restatement's own words).
 */
function restatementEnd(tokens: string[], k: number): number {
  const phrase = restatementAt(tokens, k);
  if (phrase) return k + phrase.length;
  if ((tokens[k] !== ';' && tokens[k] !== ',') || !SOURCES_CITED.has(tokens[k + 1])) return -1;
  for (let j = k + 2; j <= k + 8 && j < tokens.length; j++) {
    if (tokens[j] === ';' || tokens[j] === '.') return -1;
    const rest = RESTATEMENTS.find((p) => (p[0] === ';' || p[0] === ',') && p.length > 1 && p.every((w, i) => i === 0 || tokens[j + i - 1] === w));
    if (rest && ['this', 'that', 'these', 'which'].includes(tokens[j])) return j + rest.length - 1;
  }
  return -1;
}

/**
 * An object of the claim named in a restatement after the verb's own object, within the sentence: the restatement
 * opens within twenty words of the verb and names the object within eight words of opening.
 */
function restatedObject(tokens: string[], verbEnd: number, objects: { start: number; end: number }[]): { start: number; end: number } | null {
  for (let k = verbEnd; k < Math.min(tokens.length, verbEnd + 20); k++) {
    const from = restatementEnd(tokens, k);
    if (tokens[k] === '.' || (tokens[k] === ';' && from < 0)) return null;
    if (from < 0) continue;
    const o = objectNamedFrom(tokens, from, objects);
    if (o) return o;
  }
  return null;
}

/**
 * The first restatement (in RESTATEMENTS' order) that starts at tokens[k]. Plain loops, here and below: closures over
 * the position, in a loop over the tokens, made a new context object for every token read.
 */
function restatementAt(tokens: string[], k: number): readonly string[] | undefined {
  for (const p of RESTATEMENTS) {
    let j = 0;
    while (j < p.length && tokens[k + j] === p[j]) j++;
    if (j === p.length) return p;
  }
  return undefined;
}

/** The first object that starts within eight words of `from`, with no full stop or semicolon before it. */
function objectNamedFrom(tokens: string[], from: number, objects: { start: number; end: number }[]): { start: number; end: number } | undefined {
  return objects.find((x) => x.start >= from && x.start <= from + 8 && !tokens.slice(from, x.start).some((t) => t === '.' || t === ';'));
}

/** "would you like me to", "shall I", "do you want us to": an offer, which tells the customer nothing yet. */
const OFFERS: readonly (readonly string[])[] = [
  ['would', 'you', 'like', 'me'], ['would', 'you', 'like', 'us'], ['do', 'you', 'want', 'me'], ['do', 'you', 'want', 'us'],
  // ("Would you like some advice on whether to change the password elsewhere?": advice offered, not given.)
  ['would', 'you', 'like', 'some'], ['would', 'you', 'like', 'advice'], ['would', 'you', 'like', 'help'], ['do', 'you', 'want', 'some'], ['do', 'you', 'want', 'advice'],
  ['shall', 'i'], ['shall', 'we'], ['should', 'i'], ['should', 'we'], ['want', 'me', 'to'], ['want', 'us', 'to'],
  // Advice promised rather than given: "I could also explain how to sign one out", "we'll send you instructions for
  // signing out your sessions", "walk you through finding and signing out your sessions".
  ['i', 'could'], ['we', 'could'], ['i', 'can', 'explain'], ['we', 'can', 'explain'], ['explain', 'how'], ['explain', 'where'],
  ['walk', 'you', 'through'], ['guide', 'you', 'through'], ['talk', 'you', 'through'], ['instructions', 'for'],
  ['instructions', 'on'], ['show', 'you', 'how'], ['tell', 'you', 'how'], ['steps', 'for'],
  // ("…, I'll tell you where the sign-in came from and how to sign out sessions": telling promised for later.)
  ["i'll", 'tell', 'you'], ["we'll", 'tell', 'you'], ['will', 'tell', 'you'], ["i'll", 'show', 'you'], ["we'll", 'show', 'you'], ["i'll", 'explain'], ["we'll", 'explain'], ['will', 'explain'],
  // An aim, not advice: "the goal is to eventually help you check your sessions".
  ['goal', 'is', 'to'], ['aim', 'is', 'to'], ['plan', 'is', 'to'], ['idea', 'is', 'to'], ['eventually'], ['meant', 'to'], ['intended', 'to'],
  // Asking whether it was done: "have you had a chance to look in your spam folder?", "did you check…?".
  ['have', 'you', 'had'], ['had', 'a', 'chance'], ['did', 'you'], ['have', 'you', 'checked'], ['have', 'you', 'looked'], ['have', 'you', 'tried'],
  // "would it help if I explained where you can sign out…?", "you can ask us to remove any…".
  ['would', 'it', 'help'], ['explained', 'how'], ['explained', 'where'], ['ask', 'us', 'to'], ['ask', 'me', 'to'],
];
const ADVICE_HEDGES = new Set(['perhaps', 'maybe', 'possibly', 'somewhere']);


/** Whether an offer starts at tokens[k] (a plain loop: a closure over the position made a context for every token). */
function offerAt(tokens: string[], k: number): boolean {
  for (const phrase of OFFERS) {
    let j = 0;
    while (j < phrase.length && tokens[k + j] === phrase[j]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}

/** Advice before `at` given only as an offer to give it, or under a hedge word in its own sentence part. */
function offeredOrHedged(tokens: string[], at: number): boolean {
  let start = at;
  while (start > 0 && !/^[.;:!?]$/.test(tokens[start - 1])) start--;
  // (A hedge word doubts its own clause: "it got filtered somewhere, so do have a look in your spam folder" advises.)
  let clause = at;
  while (clause > start && !/^[,-]$/.test(tokens[clause - 1]) && tokens[clause - 1] !== 'so') clause--;
  for (let k = start; k < at; k++) {
    if (k >= clause && ADVICE_HEDGES.has(tokens[k])) return true;
    // ("You may review your sessions" gives leave; "there may be an option", "it may be possible" doubt.)
    if (k >= clause && tokens[k] === 'might' && !['want', 'wish', 'like'].includes(tokens[k + 1] ?? '')) return true;
    if (k >= clause && tokens[k] === 'may' && (tokens[k + 1] === 'be' || ['there', 'it', 'this', 'that'].includes(tokens[k - 1] ?? ''))) return true;
    // ("there could be an option to sign sessions out": a possibility, like "there may be".)
    if (k >= clause && tokens[k] === 'could' && ['there', 'it', 'this', 'that'].includes(tokens[k - 1] ?? '')) return true;
    if (offerAt(tokens, k)) return true;
    // ("I'm reviewing the event log … so that you can find your sessions and sign out any": the aim of work still under
    // way tells the customer nothing yet.)
    if (tokens[k] === 'so' && tokens[k + 1] === 'that' && workUnderWay(tokens, start, k)) return true;
    // ("Hi Ingrid, so that you can sign in with a backup code …, I've forwarded your ticket": a purpose opening the
    // sentence is what the main clause is for; "advise you on whether to change your password": a choice still open.)
    if (tokens[k] === 'so' && tokens[k + 1] === 'that' && (k === start || (tokens[k - 1] === ',' && k <= start + 4 && ['hi', 'hello', 'dear', 'hey'].includes(tokens[start])))) return true;
    if (k >= clause && tokens[k] === 'whether' && tokens[k + 1] === 'to') return true;
  }
  // ("…and there could be an option to sign sessions out, though I'm not certain": a doubt after it.)
  for (let k = at + 1; k < tokens.length && !/^[.;!?]$/.test(tokens[k]); k++) {
    if (tokens[k] === 'not' && ['sure', 'certain', 'positive'].includes(tokens[k + 1] ?? '')) return true;
  }
  return false;
}

/** A time before this ticket in the act's part of the sentence: "yesterday", "last week", "3 days ago", "your earlier ticket". */
function earlierOccasion(tokens: string[], at: number): boolean {
  // (In the act's own clause: "someone got in last night and changed it, so we've locked the account" is today's act.)
  // (Our own act, or one said to be done already: "our checks blocked both attempts yesterday" reports what happened.)
  let ours = false;
  const { startOf, earlier } = occasionsOf(tokens);
  for (let k = at - 1; k >= Math.max(startOf[at], at - 3); k--) if (['we', 'i', "we've", "i've", 'already', 'was', 'were'].includes(tokens[k])) ours = true;
  return ours && earlier[startOf[at]] === 1;
}

/**
 * "so I'll resend the reset link first thing tomorrow morning", "we'll send you a new link tomorrow instead": our act
 * put off to a later day is not done for this ticket.
 */
function laterOccasion(tokens: string[], at: number): boolean {
  const { startOf, later } = occasionsOf(tokens);
  let future = false;
  for (let k = at - 1; k >= Math.max(startOf[at], at - 3); k--) if (["we'll", "i'll", 'will'].includes(tokens[k])) future = true;
  return future && later[startOf[at]] === 1;
}

/**
 * For each token, where its clause starts; for each clause start, whether the clause names an earlier occasion
 * ("yesterday", "last week", "your earlier ticket") or a later day ("tomorrow", "next week"). Read once per sentence:
 * asked for every act in it, reading the clause again for each would be quadratic.
 */
const occasionCache = new WeakMap<string[], { startOf: Int32Array; earlier: Uint8Array; later: Uint8Array }>();
function occasionsOf(tokens: string[]): { startOf: Int32Array; earlier: Uint8Array; later: Uint8Array } {
  let found = occasionCache.get(tokens);
  if (found) return found;
  const n = tokens.length;
  found = { startOf: new Int32Array(n + 1), earlier: new Uint8Array(n + 1), later: new Uint8Array(n + 1) };
  let start = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && CLAUSE_MARKS.test(tokens[k - 1])) start = k;
    found.startOf[k] = start;
    // (A mark belongs to no clause: the clause before it ends there.)
    if (CLAUSE_MARKS.test(tokens[k])) continue;
    const t = tokens[k];
    if (t === 'yesterday' || t === 'ago' || (t === 'last' && EARLIER_SPANS.has(tokens[k + 1] ?? '')) || (['earlier', 'previous', 'prior', 'old', 'last'].includes(t) && EARLIER_OCCASIONS.has(tokens[k + 1] ?? ''))) found.earlier[start] = 1;
    if (t === 'tomorrow' || (t === 'next' && LATER_SPANS.has(tokens[k + 1] ?? ''))) found.later[start] = 1;
  }
  found.startOf[n] = start;
  occasionCache.set(tokens, found);
  return found;
}
const LATER_SPANS = new Set(['week', 'month', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday']);

const CLAUSE_MARKS = /^[.;!?,()\-]$/;
const EARLIER_SPANS = new Set(['week', 'month', 'night', 'year', 'time', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const EARLIER_OCCASIONS = new Set(['ticket', 'request', 'case', 'email', 'message', 'conversation', 'chat', 'contact']);

/** Our work under way or to come between start and end: "I'm reviewing", "we're checking", "we'll look into". */
function workUnderWay(tokens: string[], start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    if (["i'm", "we're", 'am'].includes(tokens[k]) && /^[a-z]+ing$/.test(tokens[k + 1] ?? '')) return true;
    if (["i'll", "we'll"].includes(tokens[k]) || (['i', 'we'].includes(tokens[k]) && tokens[k + 1] === 'will')) return true;
  }
  return false;
}

/** The forms of the verbs of looking: "look", "looked", "peeking", "glance", "searched". */
const LOOKING = /^(look|peek|glanc|search)/;
/** The verbs of looking and "check": what may be done "there", at a place named before. */
const LOOKING_OR_CHECKING = /^(look|peek|glanc|search|check)/;
/** Base forms that are also adjectives of the state the act leaves: "the trace is open". */
const STATE_BASES = new Set(['open']);
const PLACES_AFTER_VERB = ['on', 'in', 'from', 'for', 'at', 'with', 'across'];
const PLACES_BEFORE_VERB = ['on', 'in', 'from', 'at', 'with', 'across'];
const NOUN_READING: ReadonlySet<string> = new Set(SUPPORT_NOUN_READING);
/** Nouns a noun-reading verb may modify: "a reset link", "the lock screen", "a check box". */
const MODIFIED_NOUNS = new Set(['link', 'links', 'email', 'emails', 'request', 'requests', 'code', 'codes', 'page', 'button', 'option', 'form', 'screen', 'process', 'message']);
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'your', 'our', 'its', 'any', 'every']);

/**
 * A base form with a noun reading is a noun after a determiner or a noun ("put a lock on your account", "a
 * video identity check"); otherwise the governor decides, and a bare base form at the head of its clause is an
 * instruction.
 */
function baseStance(tokens: string[], at: number): string {
  // "A carrier trace is now open", "What we have done is open a trace": "open" after "is" is a state, or what
  // was done.
  if (STATE_BASES.has(tokens[at])) {
    let k = at - 1;
    while (['now', 'already', 'officially'].includes(tokens[k] ?? '')) k--;
    if (['is', 'are', "it's", "that's"].includes(tokens[k] ?? '')) return 'a';
  }
  const governed = governBase(tokens, at);
  if (governed !== 'c' || !NOUN_READING.has(tokens[at])) return governed;
  const prev = tokens[at - 1];
  if (prev === undefined || ['please', 'and', 'then', ',', ';', ':', '.', 'to'].includes(prev)) return 'c';
  return DETERMINERS.has(prev) || /^[a-z-]+$/.test(prev) ? 'a' : 'c';
}

/**
 * An -ing form states an action when "be" makes it progressive ("we're revoking") or "by" makes it the means
 * ("secured it by locking it and signing out every session"); a gerund subject ("Locking the account is the
 * step we take") or an adjunct states nothing about this case.
 */
function ingStance(tokens: string[], at: number): string {
  for (let k = at - 1; k >= Math.max(0, at - 8); k--) {
    const t = tokens[k];
    if (/^[.;:?!]$/.test(t)) break;
    if (['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'by'].includes(t) || /'(re|s|m)$/.test(t)) return 'a';
    // "we will restore access after verifying your identity": the verification is part of what is said.
    if (['after', 'upon', 'following'].includes(t) && k === at - 1) return 'a';
  }
  return 'c';
}

/** Anyone but us, in general words; the task names its own (lexicon `third_parties`: "the attacker"). */
const THIRD_PARTIES = new Set(['someone', 'somebody', 'whoever']);

/**
 * "someone else locked your account, signed out all sessions and revoked...": not an action we took. The
 * subject reaches over a chain of coordinated verbs, up to the clause's end or a subject of our own ("we").
 */
function doneBySomeoneElse(tokens: string[], at: number, lexicon: Lexicon): boolean {
  const thirdParty = (t: string | undefined) => t !== undefined && (THIRD_PARTIES.has(t) || lexicon.thirdParties.has(t));
  // A passive names its doer after "by" ("has been signed out", "were revoked by the attacker").
  if (['been', 'was', 'were', 'is', 'are', 'be'].includes(tokens[at - 1] ?? '')) {
    return tokens[at + 1] === 'by' && tokens.slice(at + 2, at + 4).some(thirdParty);
  }
  for (let k = at - 1; k >= Math.max(0, at - 20); k--) {
    if (/^[.;:?!]$/.test(tokens[k]) || /^(we|i|our)$/.test(tokens[k]) || /^(we|i)'/.test(tokens[k])) return false;
    // "everyone, including the intruder, ...": named as one of those acted on, not the doer.
    if (thirdParty(tokens[k]) && !['including', 'incl', 'even'].includes(tokens[k - 1] === 'the' ? tokens[k - 2] : tokens[k - 1])) return true;
  }
  return false;
}

/**
 * "revoked keys can't be reactivated": a participle standing before its noun describes it; the clause's own
 * verb (and its negation) is another.
 */
function attributive(tokens: string[], v: { at: number; end: number; form: VerbForm }, object: { start: number }): boolean {
  // ("…and locked itself", "and revoked them": a pronoun is no noun a participle could describe.)
  if (v.form !== 'done' || object.start !== v.end || PRONOUNS.has(tokens[object.start])) return false;
  const before = tokens[v.at - 1];
  // ("* Revoked API key ops-runner-4 (created within the last 48 hours)": at the head of a line with no verb of its own
  // after it, a participle is the report of what was done.)
  if ((before === undefined || /^[.;:]$/.test(before)) && !auxiliaryAfter(tokens, object.start)) return false;
  return before === undefined || ['the', 'all', 'any', 'those', 'these', 'its', 'your', 'our', ',', 'and'].includes(before) || /^[.;:]$/.test(before);
}

/**
 * "a reset link sent before then would not lift the lock": an indefinite object with its participle after it, as the
 * subject of a doubted or denied verb, is a thing supposed, not an act reported. ("A new link sent to your inbox
 * expires in 15 minutes" still reports it.)
 */
function supposedThing(tokens: string[], v: { at: number; end: number; form: VerbForm }, object: { start: number; end: number }): boolean {
  if (v.form !== 'done' || v.at !== object.end || !['a', 'an', 'any'].includes(tokens[object.start - 1] ?? '')) return false;
  for (let k = v.end; k < Math.min(tokens.length, v.end + 8); k++) {
    if (/^[.;:(!?]$/.test(tokens[k])) return false;
    if (['would', 'could', 'might', 'wouldn\'t', 'couldn\'t', 'cannot', "can't", "won't", "doesn't", "don't", 'not', 'never'].includes(tokens[k])) return true;
  }
  return false;
}

/** Verbs that undo an act named as a noun after them: "lift the lock", "release the hold", "remove the block". */
const UNDOING_VERBS = new Set(['lift', 'lifts', 'lifted', 'lifting', 'release', 'releases', 'released', 'remove', 'removes', 'removed', 'end', 'ends', 'clear', 'clears', 'undo', 'reverse']);

/** Whether the act's word at `at` is a noun undone by a verb within three words before it ("won't lift the lock"). */
function nounUndone(tokens: string[], at: number): boolean {
  if (!['the', 'this', 'that', 'your', 'its', 'a'].includes(tokens[at - 1] ?? '')) return false;
  for (let k = at - 2; k >= Math.max(0, at - 4); k--) if (UNDOING_VERBS.has(tokens[k])) return true;
  return false;
}

const AFTER_SUBJECT_AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'can', 'cannot', 'will', 'would', 'have', 'has', 'must', 'should', 'may', 'might', 'could', 'stay', 'stays', 'remain', 'remain']);

/** A finite verb for the phrase starting at `from`, within six words and its sentence part: "Revoked keys can't be…". */
function auxiliaryAfter(tokens: string[], from: number): boolean {
  for (let k = from; k < Math.min(tokens.length, from + 7); k++) {
    if (/^[.;:(!?]$/.test(tokens[k])) return false;
    if (AFTER_SUBJECT_AUXILIARIES.has(tokens[k]) || /n't$/.test(tokens[k])) return true;
  }
  return false;
}

/** A stance from the clause and one from the verb's own governor: the stronger denial wins. */
function combine(clause: string, governed: string): string {
  if (clause !== 'a') return clause;
  return governed;
}

function findQualifier(sentences: AnalysedSentence[], si: number, lo: number, hi: number, scan: QualifierScan): { disjunct: boolean; denied: boolean } | null {
  const tokens = sentences[si].tokens;
  for (const q of scan.hitsIn(si)) {
    const inside = q.start >= lo && q.end <= hi;
    const before = q.end <= lo && ((lo - q.end <= 8 && !tokens.slice(q.end, lo).includes(';') && (!predicateBetween(tokens, q.end - 1, lo) || youThenAt(tokens, q.end, lo))) || placeTakenUp(tokens, q.end, lo));
    const after =
      q.start >= hi &&
      ((q.start - hi <= 10 && !tokens.slice(hi, q.start).includes(';') && !predicateBetween(tokens, hi - 1, q.start)) || inAsideAfter(tokens, hi, q));
    // "so no video call is needed": the qualifier denied is a conflicting value.
    if (inside || before || after) {
      const denied = sentences[si].moods[q.start] === 'n';
      return { disjunct: disjunctAround(tokens, q.start, q.end, 3, 5) || denied, denied };
    }
  }
  // ("if you've used the same password anywhere else (another site, an app), please swap it out there too", "Is the
  // same password used on other accounts? If so, please change it on those as well": a place named in the condition,
  // taken up after the act by "there" or "on those".)
  if (placeTakenUpAfter(tokens, hi)) {
    for (const q of scan.hitsIn(si)) {
      if (q.end <= lo && !tokens.slice(q.end, lo).some((t) => t === ';' || t === '.')) return { disjunct: false, denied: sentences[si].moods[q.start] === 'n' };
    }
    if (si > 0 && tokens[0] === 'if' && tokens[1] === 'so' && sentences[si - 1].paragraph === sentences[si].paragraph) {
      const q = scan.hitsIn(si - 1)[0];
      if (q) return { disjunct: false, denied: sentences[si - 1].moods[q.start] === 'n' };
    }
  }
  // "verify your identity on that call", after "...set up a video call": a definite noun naming the qualifier, one
  // named earlier in this sentence or in the two before. (The noun a definite phrase would repeat: "call" of "video
  // call", or the word after a one-word qualifier.)
  const named: string[] = [];
  for (let k = Math.max(0, lo - 8); k < Math.min(tokens.length - 1, hi + 8); k++) if (['that', 'the', 'this'].includes(tokens[k])) named.push(tokens[k + 1]);
  if (named.length === 0) return null;
  for (let d = 0; d <= 2 && si - d >= 0; d++) {
    const heads = d === 0 ? scan.headsBefore(si, lo) : scan.headsIn(si - d);
    if (named.some((noun) => heads.has(noun))) return { disjunct: false, denied: false };
  }
  return null;
}

/**
 * "Pop into Settings > Security and you'll see the list of sessions", "…, where you can review them": what the
 * customer then does there, the place's own clause.
 */
function youThenAt(tokens: string[], from: number, to: number): boolean {
  if (!['and', 'where', ','].includes(tokens[from]) || from + 1 >= to) return false;
  const rest = tokens.slice(from + 1, to).join(' ');
  return ["you'll", 'you will', 'you can', "you'll be able to", 'you will be able to', 'you should'].includes(rest);
}

/** "… there too", "… on those as well": a place taken up by a pro-form within three words after the act. */
function placeTakenUpAfter(tokens: string[], hi: number): boolean {
  for (let k = hi; k < Math.min(tokens.length, hi + 3); k++) {
    if (tokens[k] === 'there') return true;
    if (['on', 'for', 'in'].includes(tokens[k]) && ['those', 'them', 'these'].includes(tokens[k + 1] ?? '')) return true;
  }
  return false;
}

/** A sentence opening with the customer's wish: "Should you wish to…", "If you'd like to…", "If you want to be sure,". */
function forTheirWish(tokens: string[]): boolean {
  if (tokens[0] !== 'if' && tokens[0] !== 'should') return false;
  for (let k = 1; k < Math.min(tokens.length, 5); k++) if (['wish', 'want', 'like', 'prefer', 'need'].includes(tokens[k])) return true;
  return false;
}

/**
 * "go to Settings > Security; it lists all your active sessions": the next part opens with a pronoun for the place just
 * named, as the subject of the act (up to two words before it).
 */
function placeTakenUp(tokens: string[], placeEnd: number, lo: number): boolean {
  let k = placeEnd;
  while (k < placeEnd + 2 && /^[.)]$/.test(tokens[k] ?? '')) k++;
  if (!/^[;,:-]$/.test(tokens[k] ?? '') || !['it', 'this', 'that', 'which', 'there'].includes(tokens[k + 1] ?? '')) return false;
  return lo - (k + 2) <= 2 && lo >= k + 2;
}

/**
 * "revoked the API key 'etl-job-8' (our rule is that every key made in the last 72 hours goes…)": an aside in brackets
 * opening just after the act (within its object's words) says what the act was, up to sixteen words into it.
 */
function inAsideAfter(tokens: string[], hi: number, q: { start: number; end: number }): boolean {
  let open = hi;
  while (open < hi + 4 && open < tokens.length && tokens[open] !== '(' && !/^[.,;:]$/.test(tokens[open])) open++;
  if (tokens[open] !== '(' || q.start - open > 16) return false;
  for (let k = open + 1; k < q.start; k++) if (tokens[k] === ')' || tokens[k] === ';' || tokens[k] === '.') return false;
  return true;
}

/**
 * Where a claim's qualifiers stand in each sentence, found once per sentence rather than once per verb: a sentence
 * of many verbs read its whole length again for each of them.
 */
class QualifierScan {
  private readonly hits: { start: number; end: number }[][] = [];
  private readonly heads: Set<string>[] = [];

  constructor(
    private readonly sentences: AnalysedSentence[],
    private readonly qualifiers: string[][],
  ) {}

  /** The qualifiers found in sentence k, in order (what findPhrases finds). */
  hitsIn(k: number): { start: number; end: number }[] {
    return (this.hits[k] ??= findPhrases(this.sentences[k].tokens, this.qualifiers));
  }

  /** The heads of the qualifiers named in sentence k. */
  headsIn(k: number): Set<string> {
    let heads = this.heads[k];
    if (!heads) {
      const tokens = this.sentences[k].tokens;
      heads = new Set();
      for (const q of this.hitsIn(k)) addHead(heads, q.end - q.start > 1 ? tokens[q.end - 1] : tokens[q.end]);
      this.heads[k] = heads;
    }
    return heads;
  }

  /**
   * The heads of the qualifiers named in sentence k before token `lo`: those the sentence's tokens up to `lo` hold
   * on their own (a phrase that runs past `lo` gives way to the first one that ends by it).
   */
  headsBefore(k: number, lo: number): Set<string> {
    const tokens = this.sentences[k].tokens;
    const heads = new Set<string>();
    for (const q of this.hitsIn(k)) {
      if (q.start >= lo) break;
      const end = q.end <= lo ? q.end : q.start + (this.qualifiers.find((p) => q.start + p.length <= lo && objectAt(tokens, q.start, p))?.length ?? 0);
      if (end === q.start) continue;
      addHead(heads, end - q.start > 1 ? tokens[end - 1] : end < lo ? tokens[end] : undefined);
    }
    return heads;
  }
}

function addHead(heads: Set<string>, head: string | undefined): void {
  if (head && /^[a-z]+$/.test(head)) heads.add(head);
}

/** "then unlocked it again and restored the sessions", "then reinstated them": an undone action is denied. */
function findReversals(sentences: AnalysedSentence[], m: Matcher, lexicon: Lexicon): ActionHit[] {
  const out: ActionHit[] = [];
  sentences.forEach((s, si) => {
    const tokens = s.tokens;
    for (let i = 0; i < tokens.length; i++) {
      // "has been cancelled" states the claim itself when cancelling is one of its verbs (API keys), not an undoing.
      if (!(REVERSALS.has(tokens[i]) || lexicon.reversals.has(tokens[i])) || s.moods[i] !== 'a' || isClaimVerb(m, tokens[i])) continue;
      // "before we restore access", "once your account is unlocked": a condition, not an undoing.
      if (tokens.slice(Math.max(0, i - 9), i).some((t) => ['before', 'until', 'once', 'when', 'after', 'if'].includes(t))) continue;
      // "access is restored only after that", "reinstated once verified": the condition follows.
      if (tokens.slice(i + 1, i + 4).some((t) => ['after', 'once', 'when', 'until', 'only'].includes(t))) continue;
      let k = i + 1;
      while (SKIPPABLE.has(tokens[k]) || lexicon.incidentalModifiers.has(tokens[k])) k++;
      const direct = anyObjectAt(tokens, k, m.objects) || (PRONOUNS.has(tokens[k]) && k === i + 1);
      // Passive: "the keys were reinstated"; not "access to the account is restored", where access is the subject.
      const passive = ['been', 'was', 'were', 'is', 'are'].includes(tokens[i - 1]) && subjectBefore(tokens, i, m.objects);
      if (direct || passive) out.push({ sentence: si, mood: 'n', disjunct: false, reversed: true });
    }
  });
  return out;
}

/*
 * findReversals' questions, as functions of their own: a closure over the loop's position made a new context object
 * for every token read.
 */
function isClaimVerb(m: Matcher, token: string): boolean {
  return m.verbs.some((v) => v.head.has(token));
}

function anyObjectAt(tokens: string[], k: number, objects: string[][]): boolean {
  return objects.some((o) => phraseAt(tokens, k, o));
}

/** One of the objects in the five words before i, not after a preposition ("access to the account is restored"). */
function subjectBefore(tokens: string[], i: number, objects: string[][]): boolean {
  return findPhrases(tokens.slice(Math.max(0, i - 5), i), objects).some((o) => !['to', 'of', 'on', 'for'].includes(prepositionBefore(tokens, Math.max(0, i - 5) + o.start)));
}

/** The word before a noun phrase, past its determiners ("access to your account": "to"). */
function prepositionBefore(tokens: string[], start: number): string {
  let k = start - 1;
  while (k >= 0 && ['the', 'your', 'its', 'our', 'this', 'that'].includes(tokens[k])) k--;
  return tokens[k] ?? '';
}

import { findDates } from './dates';
import { findDurations } from './durations';
import type { Span, ValueMention } from './mentions';
import { findMoney } from './money';
import type { Lexicon } from './lexicon';
import { hasInternalCode, hasRunbookMarker, preparePolicies, quotesPolicy, type PolicyText } from './policy';
import { continuesFrom, disclaims, leavesWaiting, retractionAt, stanceOf } from './polarity';
import { functionWordCount, isLabelLine, shapeOf } from './prose';
import { clauseIds } from './clauses';
import { withinReadingBudget } from './budget';
import { cleanText, isWord, splitSentences, tokenize } from './text';
import { containsPhrase } from './phrases';

export type SentenceStatus = 'prose' | 'telegraphic' | 'not_a_sentence' | 'other_language' | 'quoted_policy';

export interface AnalysedSentence {
  text: string;
  status: SentenceStatus;
  paragraph: number;
  tokens: string[];
  /** One stance character per token (polarity.ts): a, n, h, o, r or c. */
  moods: string;
  /** Clause number per token (clauses.ts). */
  clauses: number[];
  /** Token indices of negators. */
  negators: number[];
}

/**
 * Everything the judge needs from one reply, computed once when the reply is sent and stored with the step as
 * JSON. It holds no claim: the same analysis judges any declaration, so a task's claims can change without
 * re-reading old replies.
 */
export interface ReplyAnalysis {
  version: 1;
  clock: string;
  sentences: AnalysedSentence[];
  mentions: ValueMention[];
  /**
   * The reply was over the reading budget (budget.ts) and was not read: it has no sentences and no values, so it
   * covers no detail and says nothing a penalty could be taken for. Absent for every reply that was read.
   */
  unreadable?: true;
}

export interface ExtractOptions {
  /** Agent-facing texts of the task (knowledge-base articles, contract notes) for the pasted-policy rule. */
  policies?: PolicyText[];
  /** Who the reply is for, and what belongs to other customers, for the rules on addressing and on other people. */
  people?: People;
  /** The task's own words (claims/lexicon.ts): its runbooks' instruction verbs. */
  lexicon?: Lexicon;
}

export interface People {
  /** The customer's names as a reply may address them ("Dana", "Dana Whitfield", "Ms Whitfield"'s "Whitfield"). */
  customer: string[];
  /** Other customers' names: a reply greeting one of them is written to someone else. */
  others: string[];
  /** Identifiers that belong to other customers only (accounts, orders, invoices): a sentence naming one is about them. */
  foreignIds: string[];
}

export function extractMentions(reply: string, clock: string, options: ExtractOptions = {}): ReplyAnalysis {
  const policies = preparePolicies(options.policies ?? [], options.lexicon);
  const raw = splitSentences(cleanText(reply));
  const tokenized = raw.map((s) => tokenize(s.text));
  if (!withinReadingBudget(tokenized)) return unreadableAnalysis(clock);
  const sentences: AnalysedSentence[] = [];
  const mentions: ValueMention[] = [];
  let quotedParagraph = -1;
  let quotedFrom = -1;
  /** Sentences whose verb is understood from a label or a question: they count only beside prose. */
  const framed = new Set<number>();
  for (const [index, s] of raw.entries()) {
    const tokens = tokenized[index];
    const taken = new Array<boolean>(tokens.length).fill(false);
    const spans: Span[] = [];
    for (const m of findMoney(tokens, taken)) {
      spans.push(m);
      for (let k = m.start; k < m.end; k++) taken[k] = true;
    }
    spans.push(...findDates(tokens, taken, clock));
    spans.push(...findDurations(tokens, taken));
    const clauses = clauseIds(tokens);
    const stance = stanceOf(tokens, new Set(spans.map((m) => m.start)), clauses);
    let status: SentenceStatus = shapeOf(tokens);
    const previous = sentences[sentences.length - 1];
    const answersQuestion =
      previous && previous.paragraph === s.paragraph && (previous.tokens[previous.tokens.length - 1] === '?' || isHeading(previous.tokens));
    // ("- A sign-in from a device we hadn't seen before / - Tuesday 25 August 2026, 20:34 UTC", "Sunday 29 November 2026,
    // 14:21 UTC: two sign-in attempts from Sao Paulo": a line that is a date alone, or a date as its label, is framed
    // by the list it is in.)
    const dated = previous !== undefined && previous.paragraph === s.paragraph && spans.length > 0 && (valuesOnly(tokens, spans, tokens.length) || valuesOnly(tokens, spans, tokens.indexOf(':')));
    // ("Here's what the email was about: / A successful sign-in on 14 February 2026 at 22:26 UTC": a line under a lead-in
    // that ends with a colon is what the lead-in announces.)
    const underLeadIn = previous !== undefined && previous.paragraph === s.paragraph && previous.tokens[previous.tokens.length - 1] === ':' && spans.length > 0;
    const frame = isLabelLine(tokens) || answersQuestion || dated || underLeadIn;
    if (status === 'not_a_sentence' && frame) {
      // A frame lends a verb, not prose: such a line is telegraphic at best.
      status = shapeOf(tokens, true);
      if (status === 'prose') status = 'telegraphic';
    }
    if (frame && status === 'telegraphic') framed.add(index);
    if (hasRunbookMarker(s.text)) quotedParagraph = s.paragraph;
    if (introducesPolicy(s.text)) quotedFrom = index + 1;
    if (status !== 'other_language') {
      const quoted = quotedParagraph === s.paragraph || (quotedFrom >= 0 && index >= quotedFrom);
      if (quoted || hasInternalCode(tokens) || quotesPolicy(tokens, policies)) status = 'quoted_policy';
    }
    // "Please send me your password. The trace result then follows within 7 business days.": a sentence that goes
    // on from one that leaves it waiting waits too.
    // "Shall I open a carrier trace? It usually takes 3 business days.": what an offer's sentence goes on to say of it
    // waits on the offer too.
    // ("Our courier guide adds that overnight priority delivers the next business day", "our policy reads: …", "for
    // reference: …": what a document says, told as its words, is no act of ours.)
    const reported = reportedFrom(tokens);
    if (reported >= 0) for (let k = reported; k < stance.moods.length; k++) if (stance.moods[k] === 'a') stance.moods[k] = 'c';
    const onOffer = previous !== undefined && previous.paragraph === s.paragraph && offers(previous.tokens) && CARRY_ON.has(tokens[0] ?? '');
    if (onOffer || (previous && previous.paragraph === s.paragraph && continuesFrom(tokens, 0) && leavesWaiting(previous.tokens, previous.moods))) {
      for (let k = 0; k < stance.moods.length; k++) if (stance.moods[k] === 'a') stance.moods[k] = 'h';
    }
    sentences.push({
      text: s.text,
      status,
      paragraph: s.paragraph,
      tokens,
      moods: stance.moods.join(''),
      clauses,
      negators: stance.negators,
    });
    for (const m of spans) mentions.push({ ...m, sentence: index });
  }
  applyReplyRules(sentences, framed, options.people);
  return { version: 1, clock, sentences, mentions };
}

/** Documents whose words a reply may report: "our policy says", "the courier guide adds that". */
const DOCUMENTS = new Set(['policy', 'policies', 'guide', 'runbook', 'procedure', 'procedures', 'guideline', 'guidelines', 'handbook', 'manual', 'article', 'documentation', 'sla']);
/** Verbs that report what a document says (not "provides" or "allows": "the credit your agreement provides" is the credit). */
const REPORTS = new Set(['reads', 'says', 'states', 'adds', 'notes', 'specifies', 'explains', 'stipulates']);
/** Subjects of our own acts: a sentence that goes on to one ("…, so I've applied it") is no report. */
const OUR_ACTS = new Set(['i', "i've", "i'll", "i'm", 'we', "we've", "we'll", "we're"]);

/**
 * Where the words a document is reported to say begin ("our policy reads: …", "our courier guide adds that …",
 * "for reference: …"), or -1. Not after "as", "per" or "under" ("as our policy states, …" tells the act that follows),
 * nor in a sentence that goes on to one of our acts.
 */
function reportedFrom(tokens: string[]): number {
  let from = -1;
  for (let i = 0; i + 1 < tokens.length && from < 0; i++) {
    if (tokens[i] === 'for' && tokens[i + 1] === 'reference' && (tokens[i + 2] === ':' || tokens[i + 2] === ',')) from = i + 3;
    const named = ['our', 'the'].includes(tokens[i - 1] ?? '') || ['our', 'the'].includes(tokens[i - 2] ?? '');
    if (!DOCUMENTS.has(tokens[i]) || !named) continue;
    if (['as', 'per', 'under'].includes(tokens[i - 2] ?? '') || ['as', 'per', 'under'].includes(tokens[i - 3] ?? '')) continue;
    if (REPORTS.has(tokens[i + 1])) from = i + 2;
  }
  if (from < 0) return -1;
  for (let k = from; k < tokens.length; k++) if (OUR_ACTS.has(tokens[k])) return -1;
  return from;
}

/** Words that open a sentence carrying on the one before it: "It usually takes…", "That would…". */
const CARRY_ON = new Set(['it', "it'll", "it's", 'that', "that'll", 'this', 'they', "they'll"]);
const OFFER_OPENERS: readonly (readonly string[])[] = [['shall', 'i'], ['shall', 'we'], ['should', 'i'], ['should', 'we'], ['would', 'you', 'like'], ['do', 'you', 'want'], ['want', 'me', 'to']];

/** A question offering to act: "…, shall I open a carrier trace?", "Would you like me to…?". */
function offers(tokens: string[]): boolean {
  if (tokens[tokens.length - 1] !== '?') return false;
  let start = tokens.length - 1;
  while (start > 0 && !/^[.;:,!?-]$/.test(tokens[start - 1])) start--;
  return OFFER_OPENERS.some((p) => p.every((w, j) => tokens[start + j] === w));
}

/** A reply over the reading budget: nothing in it is read. */
export function unreadableAnalysis(clock: string): ReplyAnalysis {
  return { version: 1, clock, sentences: [], mentions: [], unreadable: true };
}

/**
 * "When you'll have it" (a markdown heading once its marks are gone), "Delivery": a short line with no closing
 * punctuation frames the line under it, as a question does.
 */
function isHeading(tokens: string[]): boolean {
  const last = tokens[tokens.length - 1];
  return tokens.length > 0 && tokens.length <= 6 && !['.', '!', '?', ',', ';', ':'].includes(last) && tokens.every((t) => /^[\p{L}'-]+$/u.test(t));
}

/** "Here is our policy:", "the relevant policy says:": what follows is pasted, to the end of the reply. */
export function introducesPolicy(text: string): boolean {
  const colon = finalColon(text);
  if (colon < 0) return false;
  // The introduction and the colon on one line: what `.*` between them could cross. (As one pattern, `.*:\s*$` read to
  // the end of the text again after every introduction it found.)
  const lineStart = Math.max(text.lastIndexOf('\n', colon), text.lastIndexOf('\r', colon), text.lastIndexOf('\u2028', colon), text.lastIndexOf('\u2029', colon)) + 1;
  return INTRODUCTION.test(text.slice(lineStart, colon)) || /\b(the )?(relevant )?policy (says|states|reads)\s*:\s*$/i.test(text);
}

const INTRODUCTION = /\b(here is|here's|below is|this is) (our|the) (relevant |applicable )?(policy|policies|runbook|procedure|guideline)s?\b/i;

/** The index of a ":" that only whitespace follows, or -1. */
function finalColon(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return text[end - 1] === ':' ? end - 1 : -1;
}

function isSalutation(tokens: string[]): boolean {
  const [a, b] = tokens;
  return (['hi', 'hello', 'dear', 'hey'].includes(a) && /^[a-z]/.test(b ?? '')) || ['sorry', 'thanks', 'thank', 'apologies', 'regards', 'best', 'kind', 'sincerely'].includes(a);
}

/** "Helena:", "Isabelle - ...", "Dana," at the head of a line: the customer addressed by name. */
function isVocative(text: string, names: string[]): boolean {
  const head = /^\s*(?:(?:hi|hello|dear|hey)\s+)?((?:mr|mrs|ms|dr)\.?\s+)?([\p{L}'-]+(?:\s[\p{L}'-]+)?)\s*[,:\-]/iu.exec(text);
  return head !== null && names.some((name) => name.toLowerCase() === head[2].toLowerCase());
}

/** "Hi Amir," when the ticket is Helena's: the reply is written to someone else. */
function greetsSomeoneElse(sentences: AnalysedSentence[], people: People | undefined): boolean {
  if (!people || sentences.length === 0) return false;
  const [first, second] = sentences[0].tokens;
  if (!['hi', 'hello', 'dear', 'hey'].includes(first)) return false;
  const named = (second ?? '').replace(/'s$/, '');
  const matches = (names: string[]) => names.some((n) => n.toLowerCase().split(/\s+/).includes(named));
  return matches(people.others) && !matches(people.customer);
}

/** A title before a surname ("Ms Lindqvist"), asked of every token: made once. */
const TITLE = /^(mr|mrs|ms|dr)\.?$/;

/** One of the names' surname after the title at k ("ms lindqvist", "ms . lindqvist"). */
function surnameAfter(tokens: string[], k: number, names: string[][]): boolean {
  return names.some((name) => name[name.length - 1] === tokens[k + 1] || (tokens[k + 1] === '.' && name[name.length - 1] === tokens[k + 2]));
}

/** Rules that need the whole reply: fragments only count beside prose, and a retraction withdraws what preceded it. */
function applyReplyRules(sentences: AnalysedSentence[], framed: Set<number>, people?: People): void {
  const anyProse = sentences.some((s) => s.status === 'prose');
  // A greeting, a closing, or the customer's name at the head of a line words the reply to someone: label lines
  // under "Hi Isabelle," or a terse "Helena: account locked, ..." are a message, not a list.
  const addressed =
    anyProse || sentences.some((s) => isSalutation(s.tokens) || (people !== undefined && isVocative(s.text, people.customer)));
  for (const [i, s] of sentences.entries()) {
    if (s.status !== 'telegraphic') continue;
    // Fragments alone, written to no one, are a keyword list however they are punctuated.
    if (framed.has(i) ? !addressed : !anyProse && !addressed && functionWordCount(s.tokens) < 2) s.status = 'not_a_sentence';
  }
  // About someone else: a reply greeting another customer, or a sentence naming another customer's account or order.
  const toSomeoneElse = greetsSomeoneElse(sentences, people);
  const foreign = new Set((people?.foreignIds ?? []).map((id) => id.toLowerCase()));
  // Another customer named in full ("For Greta Lindqvist the replacement ships...") or by title and surname.
  const otherNames = (people?.others ?? []).filter((n) => n.includes(' ')).map((n) => n.toLowerCase().split(/\s+/));
  const namesOther = (tokens: string[]) =>
    otherNames.some((name) => containsPhrase(tokens, name)) || tokens.some((t, k) => TITLE.test(t) && surnameAfter(tokens, k, otherNames));
  let previousForeign: boolean = false;
  for (const [i, s] of sentences.entries()) {
    // "...refunded $348 on account ACC-31877. Expect it to settle within 5-7 business days.": "it" carries on.
    const carriesOn: boolean = previousForeign && sentences[i - 1].paragraph === s.paragraph && s.tokens.slice(0, 3).some((t) => ['it', 'this', 'that', 'they', 'these'].includes(t));
    previousForeign = toSomeoneElse || carriesOn || s.tokens.some((t) => foreign.has(t)) || namesOther(s.tokens);
    if (previousForeign) s.moods = 'o'.repeat(s.moods.length);
  }
  // A disclaimer after values makes everything before it undecided, as a hedge would.
  for (let i = sentences.length - 1; i > 0; i--) {
    if (!disclaims(sentences[i].tokens)) continue;
    for (let k = 0; k < i; k++) sentences[k].moods = sentences[k].moods.replace(/a/g, 'h');
    break;
  }
  for (let i = sentences.length - 1; i >= 0; i--) {
    const at = retractionAt(sentences[i].tokens);
    if (at < 0) continue;
    sentences[i].moods = 'r'.repeat(at) + sentences[i].moods.slice(at);
    for (let k = 0; k < i; k++) sentences[k].moods = 'r'.repeat(sentences[k].moods.length);
    break;
  }
}

/** Words beside a date or time that say nothing else: "20:34 UTC", "(14:21 GMT)". */
const TIME_WORDS = new Set(['utc', 'gmt', 'bst', 'cet', 'cest', 'est', 'edt', 'pst', 'pdt', 'am', 'pm', 'at', 'around']);

/** Whether the tokens before `end` (at least one) are values found in the sentence, times and marks only. */
export function valuesOnly(tokens: string[], spans: readonly { start: number; end: number }[], end: number): boolean {
  if (end <= 0) return false;
  let k = 0;
  let sawValue = false;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let next = 0;
  while (k < end) {
    while (next < sorted.length && sorted[next].end <= k) next++;
    if (next < sorted.length && sorted[next].start <= k) {
      k = sorted[next].end;
      sawValue = true;
      continue;
    }
    const t = tokens[k];
    if (isWord(t) && !TIME_WORDS.has(t) && !/^\d{1,2}[:.]\d{2}$/.test(t)) return false;
    k++;
  }
  return sawValue;
}

import { NO_LEXICON, type Lexicon } from './lexicon';
import { INSTRUCTION_VERBS, RUNBOOK_MARKERS } from '../support-vocabulary';
import { splitSentences, tokenize, isWord } from './text';
import { formsOf } from './morphology';

/**
 * Pasted policy. An agent that pastes the runbook into the reply has told the customer nothing: the text is
 * addressed to the agent. A reply sentence is `quoted_policy` when
 *   - it carries a runbook marker ("When it applies:", "What to do:", "What to tell the customer", "Exceptions:",
 *     "[Internal]", "Agent notes", "per KB-...", a KB article id) - and so does the rest of its paragraph, which
 *     is the rest of the pasted block;
 *   - it opens with a policy's title (at least its first two words; three when what follows speaks to the customer) followed by ":" - the shape of a pasted
 *     summary such as "Duplicate charges on annual plans: ...";
 *   - it holds an internal code (snake_case such as refund_issued, or key=value fields);
 *   - or it is a near-verbatim copy (80% of its words, in order, forming 60% of the source) of a policy
 *     sentence that instructs the agent ("Set the priority to urgent", "Resolve the ticket as ...").
 * A policy's customer-facing sentences (after "What to tell the customer", or after "Tell the customer") are
 * never agent instructions, so a reply that says those facts in the article's own words still counts.
 */

export interface PolicyText {
  title?: string;
  body: string;
}

export interface PreparedPolicy {
  titles: string[][];
  agentSentences: string[][];
}

const MARKERS = RUNBOOK_MARKERS;
/** Verbs a desk runbook's instructions open with (support-vocabulary.ts), and the task's own (lexicon `instruction_verbs`). */
const IMPERATIVE_OPENERS: ReadonlySet<string> = new Set(INSTRUCTION_VERBS);

const prepared = new Map<string, PreparedPolicy>();
const preparedByIdentity = new WeakMap<Lexicon, WeakMap<PolicyText[], PreparedPolicy>>();

function words(text: string): string[] {
  return tokenize(text).filter(isWord);
}

/** Titles and agent-facing sentences of the policies, computed once per set (by identity, then by content). */
export function preparePolicies(policies: PolicyText[], lexicon: Lexicon = NO_LEXICON): PreparedPolicy {
  let byIdentity = preparedByIdentity.get(lexicon);
  if (!byIdentity) preparedByIdentity.set(lexicon, (byIdentity = new WeakMap()));
  const same = byIdentity.get(policies);
  if (same) return same;
  const key = JSON.stringify([policies, [...lexicon.instructionVerbs]]);
  const cached = prepared.get(key);
  if (cached) {
    byIdentity.set(policies, cached);
    return cached;
  }
  const titles: string[][] = [];
  const agentSentences: string[][] = [];
  for (const p of policies) {
    // One-word titles ("Plan:", "Account:") are too common as label lines of honest replies to count.
    if (p.title && words(p.title).length >= 2) titles.push(words(p.title));
    // A contract note such as "VSA-2291 s.4.2: ship a replacement..." is titled by what precedes its colon.
    const label = /^([^:]{2,40}):/.exec(p.body);
    // (Not a label naming the customer's own order or account by its id, "Order SO-84229:": replies label their lines so.)
    if (label && words(label[1]).length <= 6 && words(label[1]).length >= 2 && !words(label[1]).some((w) => /\d/.test(w))) titles.push(words(label[1]));
    let section: 'agent' | 'customer' = 'agent';
    for (const s of splitSentences(p.body)) {
      const lower = s.text.toLowerCase();
      if (/what to tell the customer/.test(lower)) section = 'customer';
      else if (/what to do\s*:|when it applies\s*:|exceptions\s*:/.test(lower)) section = 'agent';
      const w = words(s.text.replace(/^.*?(what to do|when it applies|exceptions)\s*:/i, '').replace(/^[^:]{2,40}:\s*(for [^,]*,\s*)?/, ''));
      if (section === 'customer' || w.length < 3) continue;
      if (w[0] === 'tell' && w[1] === 'the' && w[2] === 'customer') continue;
      // Outside the runbook sections only instructions are agent-facing; reference facts may be told as they are.
      const inRunbook = /what to do|when it applies|exceptions/i.test(p.body);
      if (inRunbook || IMPERATIVE_OPENERS.has(w[0]) || lexicon.instructionVerbs.has(w[0]) || /\b(priority|route|resolve)\b/.test(lower)) agentSentences.push(w);
    }
  }
  const out = { titles, agentSentences };
  // A memo, not a store: a server sees a handful of tasks, and a bound keeps a stream of ad-hoc ones harmless.
  if (prepared.size >= 64) prepared.clear();
  prepared.set(key, out);
  byIdentity.set(policies, out);
  return out;
}

/** Whether the sentence carries a runbook marker; such a marker also marks the rest of its paragraph. */
export function hasRunbookMarker(text: string): boolean {
  const lower = text.toLowerCase().replace(/^[\s"'(\[]+/, (m) => (m.includes('[') ? '[' : ''));
  // ("- What to do: every session listed there has a Sign out button - use it on any session you don't recognise": a
  // reply's own label over advice to the customer, not the runbook's heading, which speaks of "the customer".)
  // ("What to do:" as a reply's own heading, alone on its line: the lines under it are read for what they are.)
  if (/^what to do\s*:\s*$/.test(lower.trim())) return false;
  if (/^what to do\s*:/.test(lower) && /\b(you|your)\b/.test(lower) && !/\bcustomer\b/.test(lower) && !MARKERS.some((m) => m.test(lower.replace(/^what to do\s*:/, '')))) return false;
  return MARKERS.some((m) => m.test(lower));
}

/** "refund_issued", asked of every token: made once (a literal in a function is a new object at each call). */
const INTERNAL_CODE = /^[a-z]+_[a-z_]+$/;

export function hasInternalCode(tokens: string[]): boolean {
  if (tokens.some((t) => INTERNAL_CODE.test(t))) return true;
  // ("75.00 duplicate - 14.00 used to pay INV-61853 + 20.00 service credit = 81.00": a sum worked out, not a field.)
  const sum = tokens.some((t, i) => (t === '+' || t === '-') && /^\d/.test(tokens[i + 1] ?? ''));
  // ("2 x USD 1,710.00 = USD 3,420.00", "12 h after the last failed attempt = approx. 19:11 UTC": a figure on one side,
  // or an approximation or a currency after it, is a value worked out, not a field.)
  // (A figure: digits, separators and decimals only; "token=8f2c1a" in a link is a field.)
  const worked = (i: number) => FIGURE.test(tokens[i - 1] ?? '') || FIGURE.test(tokens[i + 1] ?? '') || WORKED_AFTER.has(tokens[i + 1] ?? '');
  // ("Fergus - alert = new-device sign-in from Milan, IT, Mon 28 Sep": one "=" glossing a word with a phrase of three
  // words or more says what it means; "priority = high, team = billing" are fields.)
  let equals = 0;
  for (const t of tokens) if (t === '=') equals++;
  const glossed = (i: number) => {
    if (equals !== 1) return false;
    let words = 0;
    for (let k = i + 1; k < tokens.length && isWord(tokens[k]); k++) words++;
    return words >= 3;
  };
  return tokens.some((t, i) => t === '=' && isWord(tokens[i - 1] ?? '') && isWord(tokens[i + 1] ?? '') && !(sum && /^\d/.test(tokens[i + 1])) && !worked(i) && !glossed(i));
}

const FIGURE = /^\d[\d,]*(\.\d+)?$/;

/** Words after "=" that make it a value worked out: an approximation or a currency. */
const WORKED_AFTER = new Set(['approx', 'approximately', 'about', 'around', 'roughly', 'usd', 'eur', 'gbp', 'us$']);

/** The fewest words in order that make a sentence a quote of the policy rather than a fact told in its words. */
const QUOTE_WORDS = 8;

export function quotesPolicy(tokens: string[], p: PreparedPolicy): boolean {
  const w = tokens.filter(isWord);
  if (opensWithTitle(tokens, p.titles)) return true;
  if (w.length < 5) return false;
  const mine = new Set(w);
  // ("We've signed out every active session and sent a new reset link to the email address on file", "Sent: a new reset
  // link to your email address on file": told to the customer as done, in the runbook's words, is no runbook pasted.
  // The runbook speaks of "the customer", never of "we" or "you".)
  const personal = w.filter((x) => PERSONAL.has(x));
  for (const source of p.agentSentences) {
    if (lacksAny(source, personal)) continue;
    // ("Sent: a new password reset link to the email on file" for "send a new password reset link to the email address
    // on file": the runbook's instruction told as done is a report of what we did.)
    if (reportsDone(w[0], source[0])) continue;
    // A cheap word-overlap screen first; the ordered comparison only for real candidates.
    let shared = 0;
    for (const x of source) if (mine.has(x)) shared++;
    if (shared < 0.6 * source.length) continue;
    const common = lcs(w, source);
    // (Eight words in order at least: "no courier can reach you before the van leaves" tells a fact in the policy's
    // words, it pastes no runbook.)
    if (common >= 0.8 * w.length && common >= 0.6 * source.length && common >= QUOTE_WORDS) return true;
  }
  return false;
}

/** A past form of the instruction's opening verb: "sent" for "send", "revoked" for "revoke" (not "sends"). */
function reportsDone(first: string, instruction: string): boolean {
  return first !== instruction && !first.endsWith('s') && formsOf(instruction).get(first) === 'done';
}

/** Whether one of the words is not in the source (a loop: a closure over each source made a context object for each). */
function lacksAny(source: string[], words: string[]): boolean {
  for (const x of words) if (!source.includes(x)) return true;
  return false;
}

/** "Duplicate charges on annual plans: ...", "KB-BIL-101 Duplicate charges ...: ...", "VSA-2291 s.4.2: ...". */
const PERSONAL = new Set(['we', "we've", "we're", "we'll", 'our', 'us', 'you', 'your', "you'll", "you're", 'i', "i've", "i'm"]);

function opensWithTitle(tokens: string[], titles: string[][]): boolean {
  let start = 0;
  while (start < tokens.length && (!isWord(tokens[start]) || /^kb-/.test(tokens[start]))) start++;
  for (const title of titles) {
    let k = 0;
    let i = start;
    while (k < title.length && i < tokens.length) {
      if (!isWord(tokens[i]) && tokens[i] !== ':') { i++; continue; }
      if (tokens[i] !== title[k]) break;
      k++;
      i++;
    }
    if (k < Math.min(2, title.length)) continue;
    // Two words of a longer title make a label an honest reply also uses ("Suspicious login: we've locked your
    // account"); they mark pasted text only when what follows speaks to no one ("Courier options: overnight ...").
    const rest = tokens.slice(i);
    const reportsAction = reportsActionIn(rest);
    if (k < Math.min(3, title.length) && (rest.some((t) => PERSONAL.has(t)) || reportsAction)) continue;
    // ("Duplicate charges: INV-77782 and INV-77783, $400.00 each": a label over this case's own records, which no
    // policy names.)
    if (rest.some((t) => CASE_IDENTIFIER.test(t))) continue;
    // Skip a parenthesis after the title words, then require the colon.
    if (tokens[i] === '(') while (i < tokens.length && tokens[i] !== ')') i++;
    if (tokens[i] === ')') i++;
    if (tokens[i] === ':' || (k === title.length && tokens[i] === ',')) return true;
  }
  return false;
}

/** A record of the case: an invoice, order or ticket number ("inv-77782", "so-25902"). */
const CASE_IDENTIFIER = /^[a-z]{2,4}-\d{4,}$/;

/**
 * "has been revoked", "were locked": an auxiliary before a past participle. (A function of its own: a closure over a
 * title's words, in the loop over every title, made a context object for each.)
 */
function reportsActionIn(rest: string[]): boolean {
  return rest.some((t, j) => ['has', 'have', 'been', 'was', 'were'].includes(t) && /^[a-z]+ed$/.test(rest[j + 1] ?? ''));
}

function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

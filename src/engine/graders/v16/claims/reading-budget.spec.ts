import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { canonicalTasks } from '../../../../tasks/task-files';
import { reset, step } from '../../../engine';
import { grade } from '../../../grader';
import type { EpisodeState } from '../../../state';
import type { Task } from '../../../task.schema';
import { introducesPolicy } from './analyse';
import { READING_BUDGET, readingCost } from './budget';
import { businessDaysUntil } from './judge';
import { loadAnalysis, type StoredReplyAnalysis } from './stored-analysis';
import * as text from './text';

/*
 * Replies built to be expensive to read (docs/grading.md, "What reading a reply may cost"). The work is counted, not
 * timed, so the bound holds on any machine and under any load: every token array the reader makes is wrapped so
 * that each read of a token is counted, and grading a reply (reading it, judging every claim of its task, the
 * penalties) may read tokens at most WORK_PER_UNIT times for each unit the budget charges it. A reply over the
 * budget is not read at all. Cleaning and splitting read characters, not tokens: they are single passes with no
 * pattern that backtracks (regex-safety.spec.ts), and they are checked here against the patterns they replaced.
 */

const tasks = canonicalTasks().map((entry) => entry.task);
const CEILING = 8000;
/** Token reads allowed per unit charged; the highest measured is about 3 (a flood of one-token sentences). */
const WORK_PER_UNIT = 8;

const opened = new Map<Task, EpisodeState>(
  tasks.map((task) => [task, step(task, reset(task, 1), { type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id }).state]),
);

function unitsOf(message: string): number {
  return readingCost(text.splitSentences(text.cleanText(message)).map((s) => text.tokenize(s.text)));
}

let tokenReads = 0;
const counting: ProxyHandler<string[]> = {
  get(target, key, receiver) {
    if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) tokenReads++;
    return Reflect.get(target, key, receiver);
  },
};

/** Sends the reply on the task's ticket and grades it; returns the token reads that took and the state after. */
function sendCounted(task: Task, message: string): { reads: number; state: EpisodeState } {
  const tokenize = text.tokenize;
  const spy = jest.spyOn(text, 'tokenize').mockImplementation((s: string) => new Proxy(tokenize(s), counting));
  try {
    tokenReads = 0;
    const { state } = step(task, opened.get(task)!, { type: 'send_reply', message });
    return { reads: tokenReads, state };
  } finally {
    spy.mockRestore();
  }
}

/** Code points after NFKC, as the API counts a reply against MAX_MESSAGE_LENGTH. */
function normalisedLength(message: string): number {
  return [...message.normalize('NFKC')].length;
}

/**
 * Counting every token read is slow (a proxy on each array), and the bound is per unit, the same at any size: the
 * classes are grown to this share of the budget, or to the character limit if that comes first.
 */
const COUNTED_UNITS = READING_BUDGET / 8;

/**
 * `unit` repeated (a sentence break after every `every` units) up to `limit` code points after NFKC, or until the
 * reply would cost more than `units`.
 */
function filled(unit: string, limit = CEILING, sentenceBreak = '', every = Infinity, units = COUNTED_UNITS): string {
  let out = '';
  // Doubling, then adding one unit at a time from the last size that fit.
  let count = 0;
  const build = (n: number) => Array.from({ length: n }, (_, k) => unit + ((k + 1) % every === 0 ? sentenceBreak : '')).join('');
  const fits = (candidate: string) => normalisedLength(candidate) <= limit && unitsOf(candidate) <= units;
  for (let step = 1024; step >= 1; step /= 2) while (fits(build(count + step))) count += step;
  out = build(count);
  return out;
}

const RED_TEAM_TAIL = ') ' + 'no. '.repeat(166);

/** The classes that cost super-linear time before the budget, each filling the largest limit after NFKC. */
const HOSTILE: [string, string][] = [
  // What the red team sent (2,000 code points, 7,336 after NFKC), and the same filling 8,000 after NFKC.
  ['red team: "㌶" x 1,334, ") ", "no. " x 166', '㌶'.repeat(2000 - RED_TEAM_TAIL.length) + RED_TEAM_TAIL],
  ['red team filling 8,000 after NFKC', '㌶'.repeat(Math.floor((CEILING - RED_TEAM_TAIL.length) / 5)) + RED_TEAM_TAIL],
  ['red team with "ﬃ" (three letters)', 'ﬃ'.repeat(Math.floor((CEILING - RED_TEAM_TAIL.length) / 3)) + RED_TEAM_TAIL],
  ['red team in plain ASCII', 'a'.repeat(CEILING - RED_TEAM_TAIL.length) + RED_TEAM_TAIL],
  ['letters, then many abbreviations', filled('x', 4000) + ' ' + filled('e.g. ', 4000)],
  ['a run of letters', filled('a')],
  ['a run of digits', filled('7')],
  ['a run of full stops', filled('.')],
  ['letters and dots', filled('a.')],
  ['marks with no space after', filled('!?') + 'x'],
  ['a table rule that never ends', filled('-') + 'x'],
  ['table cells', filled('| a ')],
  ['brackets', filled('(')],
  ['quotes', filled('"\'')],
  ['one-token sentences', filled('a\n')],
  ['short sentences of marks', filled('$(', CEILING, '\n', 15)],
  ['many "sentences"', filled('Ok. ')],
  ['one sentence of negations', filled('no ')],
  ['one sentence of conditions', filled('if ')],
  ['negated events', filled('not refund ')],
  ['values offered as alternatives', filled('$348 or $1 ')],
  ['a list of figures', filled('1, ')],
  ['number words that never end', filled('one hundred ')],
  ['actions on objects', filled('revoked api keys ')],
  ['phrasal verbs', filled('signed sessions out ')],
  ['requests pointing back', filled('send password it ')],
  ['qualifiers named before', filled('verify identity on the video call ')],
  ['windows written as far-off dates', filled('2026-11-20 to 9999-12-31 ', CEILING, '. ', 4)],
  ['rival options', filled('standard ground no ')],
  ['policy introductions', filled('here is our policy ', CEILING, '\n', 40) + ':'],
  // Grader version 4's readings (issue 23), each at its worst.
  ['habits', filled('refunds usually ')],
  ['continuations after dashes', filled('we might - it then settles ')],
  ['the customer\'s own acts', filled('you yourself ')],
  ['requests', filled('refund request ')],
  ['trailing conditions', filled('it settles once you send ')],
  ['asides', filled('the keys ( a ) ')],
  ['restatements', filled('revoked keys , which means ')],
  ['relative clauses', filled('a device your account hadn\'t ')],
  ['fractions of an hour', filled('half an hour ')],
  ['offers', filled('would you like me to ')],
  // Grader version 5's readings (issue 23, the first exam set), each at its worst.
  ['purposes after the main clause', filled('we refunded it in order to ')],
  ['purposes with "so that"', filled('so that ')],
  ['"before" clauses of ours', filled('before we ship ')],
  ['a verb after an aside', filled('credit ( a ) will ')],
  ['questions after a dash', filled('we will verify - what ') + '?'],
  ['anaphors around a verb', filled('sign out one any its ')],
  ['where things are', filled('sessions under settings > security ')],
  ['list items under a lead-in', 'about the sign-in:\n' + filled('- when: 2026-11-13\n')],
  ['labels naming the event', filled('arrival: 5-7 days ')],
  ['events opening the next line', filled('$348 refunded. ')],
  ['advice offered or hedged', filled('i could check your spam folder somewhere ')],
  ['demonstratives after a verb', filled('opened that with ')],
  ['one hour', filled('for an hour ')],
  ['hyphened dates', filled('11-dec-2026 ')],
  ['relative "which"', filled('after which password ')],
  ['one of them', filled('if one ? sign it out ')],
  ['usual ways', filled('the usual way ')],
  ['present verbs after a subject', filled('the notification refers to ')],
  // Grader version 6's readings (issue 23, the second exam set), each at its worst.
  ['breakdowns of an amount', filled('$60 : two $20 plus $20 minus $1 ')],
  ['windows of a decision', filled('approve it within 3 business days ')],
  ['ranges and deadlines beside a date', filled('by 2026-11-27 possibly from 2026-11-25 ahead of your event on 2026-11-28 ')],
  ['figures raised from', filled('$250 raised from $225 ')],
  ['another event', filled('no further refund again ')],
  ['options as the means', filled('we sent it on standard ground ')],
  ['lists of names', filled('revoked ops-svc-5 and grafana-read , ')],
  ['negations after an aside', filled('the courier , booked now , could not ')],
  ['requests answering a condition', filled('if late , reply and ')],
  ['inverted conditions', filled('check your spam folder should it not ')],
  ['qualifiers in words', filled('revoked keys created in the last seventy-two hours ')],
  // Grader version 7's readings (issue 23, the third exam set), each at its worst.
  ['parts of a whole', filled('$1,250 of the duplicate $4,080 ')],
  ['breakdowns in brackets', filled('$92 for the two repeat $75 charge ( $75 + $20 - $3 ) ')],
  ['undoings and other outcomes', filled("won't lift the lock , no successful sign-in ")],
  ['a modal after an aside', filled('the quickest one , overnight priority , would ')],
  ['purposes with "so we can"', filled('hi , so we can refund $5 , please ')],
  // Grader version 8's readings (issue 23, the fourth exam set), each at its worst.
  ['limits in a relative clause', filled('the maximum our support team may refund , ')],
  ['aims of a case, acts waiting on a request', filled('please send it so we can refund $5 ; after that a case to refund ')],
  ['breakdowns over two sentences, what was paid off', filled('$5 settled your overdue $2 invoice plus $3 . your credit is $6 . ')],
  ['things supposed', filled('a reset link sent before then would not ')],
  ['a relative "which" after a dash', filled("- which says 'forgotten password' ")],
  ['our own words for the runbook', filled("we've sent a new password reset link to the email address on file . ")],
  ['places beside the advised one', filled('change it on any other site or service or app ')],
  ['a "try" as a noun', filled('after the last failed try , ')],
  ['what we do then, after a request', filled('call us and then we will refund , please send it and i will then ')],
  ['an undoing of a noun denied, or bounded', filled("won't lift the lock any sooner , cannot be lifted earlier while the lock ")],
  ['menu paths and places with their own subject', filled('under settings > api , where keys can be revoked ; ')],
  ['dates in a list beside the event', filled('- when : 21/04/2026\n- what : attempts blocked\n')],
  ['charges that stand as they are', filled('but the $32.00 seat add-on is correct and stays , ')],
  ['codes entered into the product', filled('please enter one of your backup codes at the sign-in screen ')],
  // Grader version 9's readings (issue 23, the fifth exam set), each at its worst.
  ['rules told for the customer\'s case', filled('if you lost them , we remove it only after verifying , ')],
  ['conditions opening a sentence', filled('should the refund not appear , ')],
  ['fragments going on from the sentence before', filled('credit issued . on your balance within 3 days ; applied to ')],
  ['counts after "all", list items further on', filled('all three were blocked\n- date : 16/04/2026\n- origin : x\n')],
  ['aims and notes handed over', filled('in order for a replacement to be sent with the aim of notes for you : ')],
  ['dashed keyword lists', filled('locked - 12 hours - reset - ')],
  ['the customer\'s own need', filled('if you need a new password , ')],
  // Version 9's per-word questions at their worst: a denial in one long opening condition, requests among many
  // objects, rival amounts in one clause that stands, conditions piled before a rule.
  ['a long opening condition', 'if not ' + filled('refund ')],
  ['many objects among "enter" cues', 'please ' + filled('enter password ')],
  ['rival amounts in a standing clause', 'we refunded ' + filled('$1 ') + 'correct .'],
  ['conditions piled before a rule', 'if you lost them ' + filled('if ') + ', we verify only after .'],
  // Grader version 10's readings (issue 23, the sixth exam set), each at its worst.
  ['restatements citing their source', filled("revoked the key ; according to the event log this is the key named 'a-b-1' , i.e. ")],
  ['rules in brackets after an act', filled("revoked the api key 'k-1' ( every key made in the last 72 hours goes ) ")],
  ['"there" after a verb of looking', filled('these land in spam , so have a peek there ; check there ')],
  ['aims of instructions', filled('please set up the call to verify identity ; then book a call to verify ')],
  ['requests later in the sentence', 'hi , ' + filled('please send me the card number , ')],
  ['sentences in brackets, items of two sentences', filled('credit issued . ( that is the duplicate . ) - timing : applied within 6 days . ')],
  ['sums and weekends', filled('75.00 - 14.00 + 20.00 = 81.00 in total , as they do not deliver at the weekend , ')],
  // Grader version 11's readings (issue 23, the seventh exam set), each at its worst.
  ['offers, approximations and referrals', filled('we can refund roughly $1 , flagged it to billing for a refund ')],
  ['figures compared, counted and standing', filled('$2 is more than we can refund , $1 each , both , so it stays ')],
  ['date lines and dated labels', '- a sign-in\n' + filled('- 25 august 2026, 20:34 utc\n29 november 2026: attempts\n')],
  ['wishes, places taken up, conditions without a comma', filled('if you want , go to settings > security ; it lists sessions , so if one is not familiar you can sign it out ')],
  ['couriers after sending verbs and reasons', filled('shipping express , courier : express , would arrive late , so ')],
  // Grader version 12's readings (issue 23, the eighth exam set), each at its worst.
  ['asides between dashes before a doubted verb', filled('any replacement - even by overnight courier - would only arrive late ')],
  ['doubts after the advice, aims of work under way', filled("i'm reviewing so that you can sign out sessions and there could be an option to sign out though i'm not sure ")],
  ['acts of an earlier occasion in one long clause', filled('we sent you a reset link yesterday and revoked the keys last week and locked it on your earlier ticket ')],
  ['owed figures, refunds again, charges, answers of no', filled("you're owed $10 back , $5 in total to be returned , refunded $4 again , two charges of $3 were taken . do you need a refund ? no , the $2 is your renewal . ")],
  ['today, yesterday, words and figures across dashes', filled('this morning , yesterday evening , a short one - 15 minutes , one - 2 days , give us a call first thing friday ')],
  // Grader version 13's readings (issue 23, the ninth exam set), each at its worst.
  ['places in conditions taken up after the act', filled("if you've used it anywhere else , please change it there too . is it used on other accounts ? if so , change it on those . ")],
  ['denied verbs of knowing, reasons and undoings', filled("i can't confirm that they were blocked , since mfa stopped it you don't need to , i had booked it but i've now cancelled that booking ")],
  ['trailing conditions after a comma, too late, spare days', filled('your sessions are under settings , each with a button if you spot one , standard ground could take until monday - too late , that leaves you friday spare ')],
  ['term lists after a label, lead-ins, already on a day', 'keywords : ' + filled('sign-in alert , new device , ') + '\n' + filled("here's what happened :\na sign-in on 14 february 2026 already sent on 2 march\n")],
  // Grader version 14's readings (issue 23, the tenth exam set), each at its worst.
  ['compound objects, sending verbs with particles, noun-reading modifiers', filled('a fresh password-reset link going out to you express , a reset link , locked itself earlier today ')],
  ['pronouns after our acts, worked sums, reasons with a noun', 'as your event is later , ' + filled('i have refunded it . 2 x usd 1.00 = usd 2.00 = approx . ')],
  // Grader version 15's readings (issue 23, the eleventh exam set), each at its worst.
  ['acts put off in one long clause, denied verbs of knowing in one segment', filled("we'll send a reset link tomorrow we'll lock it i can't confirm that we can't say whether ")],
  ['documents reported, figures added to the account, parts counted after', filled('our policy says that our guide adds that for reference , added $1 to your account usd 1.00 x 2 + ')],
  ['sending verbs, pronoun subjects of passives, status labels', filled("they're going express and it has been locked , it is currently locked - status : locked - outcome : all blocked ")],
  ['clauses of a verb and when, keyword lists after a lead-in', filled('collected today , delivered tomorrow , ') + '\n' + 'keywords for your case : ' + filled('replacement , ground , ')],
  ['days restated, places then "you\'ll", relative clauses of "it"', filled("the next business day - 4 may , go to settings > security and you'll see sessions , a network it hasn't seen ")],
  // Grader version 16's readings (issue 23, the twelfth exam set), each at its worst.
  ['glosses with "=", questions after a comma, requests waiting on an event', 'alert = ' + filled('new device sign-in , so could it be ') + '?\n' + filled('once the refund has settled , just reply , ')],
  ['states we made, what we wait to have back', filled("all sessions are signed out , once we have your confirmation , as soon as we have both back , we'll send it ")],
];

describe('the reading budget', () => {
  // (Each class on one task, in turn: the bound is the reader's, and counting every read is slow. Every task meets
  // every class in CI's deeper run, READING_BUDGET_ALL_TASKS=1.)
  it.each(HOSTILE.map(([name, message], k) => [name, message, k] as const))('%s: grades within the work bound, or is not read', (_name, message, k) => {
    const units = unitsOf(message);
    for (const task of process.env.READING_BUDGET_ALL_TASKS === '1' ? tasks : [tasks[k % tasks.length]]) {
      const { reads, state } = sendCounted(task, message);
      const analysis = state.replies[0].analysis!;
      if (units > READING_BUDGET) {
        expect(analysis).toEqual({ version: 1, clock: analysis.clock, sentences: [], mentions: [], unreadable: true });
        expect(reads).toBe(0);
      } else {
        expect(analysis.unreadable).toBeUndefined();
        expect(reads).toBeLessThanOrEqual(WORK_PER_UNIT * units);
      }
    }
  });

  it('holds at the budget itself, and a reply just past it is not read', () => {
    const task = tasks.find((t) => t.id === 'security_compromised_account')!;
    const atBudget = filled('no ', CEILING, '', Infinity, READING_BUDGET);
    const past = `${atBudget} no`;
    expect(unitsOf(atBudget)).toBeGreaterThan(0.99 * READING_BUDGET);
    expect(unitsOf(past)).toBeGreaterThan(READING_BUDGET);
    const read = sendCounted(task, atBudget);
    expect(read.state.replies[0].analysis!.unreadable).toBeUndefined();
    expect(read.reads).toBeLessThanOrEqual(WORK_PER_UNIT * unitsOf(atBudget));
    const unread = sendCounted(task, past);
    expect(unread.state.replies[0].analysis!.unreadable).toBe(true);
    expect(unread.reads).toBe(0);
  });

  it('reads the red team reply, which is within the budget once its sentences are split in one pass', () => {
    const [, message] = HOSTILE[0];
    expect(normalisedLength(message)).toBe(7336);
    expect(unitsOf(message)).toBeLessThan(READING_BUDGET / 5);
    const { state } = sendCounted(tasks[0], message);
    expect(state.replies[0].analysis!.sentences).toHaveLength(1);
  });

  it('holds on a generated corpus of hostile replies', () => {
    const pieces = [
      'no', 'not', "won't", 'never', 'if', 'unless', 'may', 'would', 'instead of', 'the usual', 'original', 'scratch that', 'please disregard',
      'send', 'reply with', "what's your", 'password', 'code', 'sms', 'card number', 'it', 'them', 'we', 'you', 'the', 'all', 'and', 'or',
      'either', 'between', ',', ';', ':', '.', '!', '?', '(', ')', '"', "'", '-', '|', '#', '*', '$', 'refund', 'refunded', 'credit',
      'locked', 'account', 'revoked', 'api keys', 'signed', 'sessions', 'out', 'verify', 'identity', 'video call', 'overnight', 'courier',
      'standard ground', 'express', 'trace', '$348', '$348.00', '348 USD', '1,000', '5-7', '5 to 7', 'business days', '72h', 'within',
      'one', 'hundred', 'thousand', 'forty-eight', '27 november', '27/11', '27.11.', '2026-11-27', '9999-12-31', 'friday', 'the 27th',
      'tomorrow', 'by 18:00', 'no.', 'e.g.', 'dr.', '1.', 'hi', 'dear', 'what to do:', 'per kb-', 'refund_issued', 'priority=high',
      '㌶', 'ﷺ', 'ﬃ', '①', 'é', 'ヘ', '😀', '\u00a0', '\u2028', '\t',
    ];
    const reply = fc
      .record({
        vocabulary: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 5 }),
        joiner: fc.constantFrom(' ', ' ', '', ', '),
        sentenceBreak: fc.constantFrom('. ', '\n', '\n\n', '? ', '; '),
        every: fc.constantFrom(3, 10, 40, 150, 1000),
        length: fc.integer({ min: 20, max: 1500 }),
        choices: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
      })
      .map(({ vocabulary, joiner, sentenceBreak, every, length, choices }) => {
        let out = '';
        for (let k = 1; ; k++) {
          const next = out + (out ? joiner : '') + vocabulary[choices[k % choices.length] % vocabulary.length] + (k % every === 0 ? sentenceBreak : '');
          if (normalisedLength(next) > length) return out;
          out = next;
        }
      });
    fc.assert(
      fc.property(reply, fc.constantFrom(...tasks), (message, task) => {
        const units = unitsOf(message);
        const { reads, state } = sendCounted(task, message);
        expect(state.replies[0].analysis!.unreadable === true).toBe(units > READING_BUDGET);
        expect(reads).toBeLessThanOrEqual(units > READING_BUDGET ? 0 : WORK_PER_UNIT * units);
      }),
      { seed: 20260701, numRuns: 60 },
    );
  });

  it('is far above every reply of the validity fixtures', () => {
    // Each family keeps its reply fixtures in its folder: src/families/<id>/fixtures/<set>.json, and the sets
    // written on drawn instances in fixtures/drawn/<set>.json (their replies grouped by instance).
    const families = join(__dirname, '..', '..', '..', '..', 'families');
    const jsonIn = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? jsonIn(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [],
      );
    const files = readdirSync(families, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(families, entry.name, 'fixtures')))
      .flatMap((entry) => jsonIn(join(families, entry.name, 'fixtures')));
    expect(files.length).toBeGreaterThanOrEqual(18);
    let highest = 0;
    for (const path of files) {
      const fixture = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      for (const group of [fixture, ...((fixture.instances ?? []) as Record<string, unknown>[])]) {
        for (const kind of ['correct', 'adversarial', 'harmful']) {
          for (const { reply } of (group[kind] ?? []) as { reply: string | string[] }[]) {
            for (const message of ([] as string[]).concat(reply)) highest = Math.max(highest, unitsOf(message));
          }
        }
      }
    }
    expect(highest).toBeGreaterThan(0);
    expect(highest).toBeLessThan(READING_BUDGET / 20);
  });
});

describe('a reply over the budget', () => {
  const task = tasks.find((t) => t.id === 'billing_duplicate_charge')!;
  const correct =
    'Hi Dana, we have refunded the duplicate renewal payment of $348.00 to your Visa. It will reach your card within 5-7 business days.';
  // A correct reply with a single line of 1,200 words after it: past the budget, so not read at all.
  const overBudget = `${correct}\n${'refund '.repeat(1200).trim()}`;

  it('is graded as unreadable: no credit for its details, and the grade says why', () => {
    expect(unitsOf(correct)).toBeLessThan(READING_BUDGET);
    expect(unitsOf(overBudget)).toBeGreaterThan(READING_BUDGET);
    const read = grade(task, step(task, opened.get(task)!, { type: 'send_reply', message: correct }).state);
    const unread = grade(task, step(task, opened.get(task)!, { type: 'send_reply', message: overBudget }).state);
    const coverage = (g: typeof read) => g.components.find((c) => c.name === 'reply_coverage')!;
    expect(coverage(read).earned_milli).toBe(200);
    expect(coverage(read).why).not.toContain('unreadable');
    expect(coverage(unread).earned_milli).toBe(0);
    expect(coverage(unread).why).toContain('the reply at step 2 is unreadable: over the reading budget');
    expect(unread.reply_details.every((d) => !d.covered)).toBe(true);
  });

  it('gets the same verdict when replayed and when graded from its stored record', () => {
    const sent = step(task, opened.get(task)!, { type: 'send_reply', message: overBudget }).state;
    const replayed = [{ type: 'open_ticket', ticket_id: 'T-1041' }, { type: 'send_reply', message: overBudget }] as const;
    const again = replayed.reduce((state, action) => step(task, state, action).state, reset(task, 1));
    const stored = JSON.parse(JSON.stringify(sent)) as EpisodeState;
    expect(again.replies[0].analysis).toEqual(sent.replies[0].analysis);
    expect(grade(task, stored)).toEqual(grade(task, sent));
    expect(grade(task, again)).toEqual(grade(task, sent));
  });

  it('stored before the budget existed, is held to it when read back', () => {
    const sentence = 'refund '.repeat(1200).trim();
    const stored: StoredReplyAnalysis = {
      version: 1,
      clock: task.clock!,
      sentences: [{ text: sentence, status: 'not_a_sentence', paragraph: 0, moods: 'a'.repeat(1200), negators: [] }],
      mentions: [],
    };
    expect(loadAnalysis(stored)).toEqual({ version: 1, clock: task.clock, sentences: [], mentions: [], unreadable: true });
  });
});

describe('the single passes that replaced backtracking patterns', () => {
  /** splitSentences as it was, with the patterns it used: the reference on short text. */
  function splitByPatterns(input: string): { text: string; paragraph: number; bullet: boolean }[] {
    const out: { text: string; paragraph: number; bullet: boolean }[] = [];
    const abbreviations = new Set(['incl', 'e.g', 'i.e', 'etc', 'approx', 'vs', 'mr', 'ms', 'mrs', 'dr', 'st', 'no', 'nr', 'ref', 'dept', 'jan', 'feb',
      'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur',
      'thurs', 'fri', 'sat', 'sun', 'cf', 'p.s', 'a.m', 'p.m']);
    input.split(/\n\s*\n/).forEach((paragraph, p) => {
      for (const rawLine of paragraph.split('\n')) {
        const bulletMark = /^([-*•]|\d{1,2}[.)])\s+/;
        const bullet = bulletMark.test(rawLine.trim());
        const line = rawLine.trim().replace(bulletMark, '');
        if (!line) continue;
        let start = 0;
        const boundary = /[.!?]+["')\]]*(?=\s)/g;
        let m: RegExpExecArray | null;
        const push = (s: string) => {
          if (s.trim()) out.push({ text: s.trim(), paragraph: p, bullet });
        };
        while ((m = boundary.exec(line))) {
          const lastWord = (line.slice(start, m.index).match(/[\p{L}\p{N}.]+$/u)?.[0] ?? '').toLowerCase();
          if (m[0] === '.' && (abbreviations.has(lastWord) || (/^\d{1,2}(\.\d{1,2})?$/.test(lastWord) && /^\s+[a-z]/.test(line.slice(m.index + 1))))) continue;
          push(line.slice(start, m.index + m[0].length));
          start = m.index + m[0].length;
        }
        push(line.slice(start));
      }
    });
    return out;
  }

  const characters = fc.constantFrom(
    'a', 'B', 'no', 'e.g', 'Dr', '27', '1', '.', '.', '!', '?', '"', "'", ')', ']', ' ', ' ', '\n', '\t', '\u00a0', '\u2028', '-', '|', ':',
    '#', '*', '㌶', 'ﬃ', '😀', '\ud83d', '\ude00', 'İ', 'x',
  );
  const snippet = fc.array(characters, { maxLength: 60 }).map((parts) => parts.join(''));

  it('splitSentences splits exactly as its patterns did', () => {
    fc.assert(fc.property(snippet, (input) => expect(text.splitSentences(input)).toEqual(splitByPatterns(input))), { seed: 11, numRuns: 3000 });
  });

  it('cleanText drops exactly the table rules its pattern dropped', () => {
    const rule = /^[ \t]*\|?[ \t:|-]*-{3,}[ \t:|-]*\|?[ \t]*$/gm;
    const table = fc.array(fc.constantFrom('-', '-', '-', '|', ':', ' ', '\t', 'a', '\n', '\u2028', '\r'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(table, (input) => {
        const normalised = input.normalize('NFKC').replace(/\r\n?/g, '\n');
        // The steps after the rule see the same text whichever way the rules were dropped.
        expect(text.cleanText(input)).toBe(text.cleanText(normalised.replace(rule, '')));
      }),
      { seed: 12, numRuns: 2000 },
    );
  });

  it('introducesPolicy says what its pattern said', () => {
    const pattern = /\b(here is|here's|below is|this is) (our|the) (relevant |applicable )?(policy|policies|runbook|procedure|guideline)s?\b.*:\s*$/i;
    const second = /\b(the )?(relevant )?policy (says|states|reads)\s*:\s*$/i;
    const words = fc.constantFrom('here is', "Here's", 'this is', 'our', 'the', 'relevant ', 'policy', 'policies', 'runbook', 'says', ':', ' ', '\n', '\u2028', 'x', 's');
    const line = fc.array(words, { maxLength: 12 }).map((parts) => parts.join(' '));
    fc.assert(fc.property(line, (input) => expect(introducesPolicy(input)).toBe(pattern.test(input) || second.test(input))), { seed: 13, numRuns: 3000 });
  });

  it('businessDaysUntil counts as the day-by-day count did, and a far date costs no more than a near one', () => {
    const DAY = 86_400_000;
    const byDays = (clock: string, date: string) => {
      const from = Date.UTC(Number(clock.slice(0, 4)), Number(clock.slice(5, 7)) - 1, Number(clock.slice(8, 10)));
      const to = Date.parse(`${date}T00:00:00Z`);
      let days = 0;
      for (let t = from + DAY; t <= to; t += DAY) if (![0, 6].includes(new Date(t).getUTCDay())) days++;
      return to < from ? -1 : days;
    };
    const day = fc.integer({ min: -400, max: 1500 });
    fc.assert(
      fc.property(day, day, (a, b) => {
        const clock = new Date(Date.UTC(2026, 10, 20) + a * DAY).toISOString();
        const date = new Date(Date.UTC(2026, 10, 20) + b * DAY).toISOString().slice(0, 10);
        expect(businessDaysUntil(clock, date)).toBe(byDays(clock, date));
      }),
      { seed: 14, numRuns: 500 },
    );
    expect(businessDaysUntil('2026-11-20T10:00:00Z', '9999-12-31')).toBe(byDays('2026-11-20T10:00:00Z', '9999-12-31'));
  });
});

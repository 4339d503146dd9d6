import { type Article, type Task, type Ticket, type Priority, type Team, type TaskFamily, Draws, declaringLexicon } from '../kit';
import canonical from './canonical.json';
import {
  HOUR,
  drawPerson,
  forgottenTimeline,
  inOrder,
  loginAlertTimeline,
  pickKind,
  takeoverTimeline,
  type Activity,
  type CaseKind,
  type Person,
} from './facts';
import { TOPIC_ARTICLES, articleIds, forgottenArticle, loginAlertArticle, priorityGuide, takeoverArticle, type Topic } from './kb';
import { answerKey } from './key';
import { SECURITY_LEXICON } from './lexicon';
import { CASE_KINDS, drawG4Case } from './case-facts';
import { buildG4AnswerKey } from './case-key';
import { caseContractNotes, caseKnowledgeBase, caseMessage, eventG4, type G4ArticleIds } from './case-texts';
import type { G4Case } from './case-facts';
import { G5_KINDS, drawG5Case } from './case5-facts';
import { buildG5AnswerKey } from './case5-key';
import { case5ContractNotes, case5KnowledgeBase, type G5ArticleIds } from './case5-texts';
import { longDate } from '../shared';
import { clockTime, contractNotes, customerMessage, eventOf, framingsFor, isoSeconds } from './messages';

/*
 * security_compromised_account as a family. A named customer writes about trouble with their account; the
 * account's event log decides which of three policies applies (a takeover, a sign-in alert with nothing changed,
 * a forgotten password), whatever the customer's words suggest. The inbox holds the other kinds as other
 * customers' tickets, one of them already resolved, and another ticket of the same customer.
 */

const SALT = 0x5ec07;
const WINDOWS = [24, 48, 72] as const;
const EXPIRIES = [15, 30, 60] as const;
const WARM_UP_DRAWS = 4;

const FIRST_NAMES = [
  'Helena', 'Amir', 'Jonas', 'Lucia', 'Priya', 'Tomasz', 'Ingrid', 'Mateo', 'Aoife', 'Kwame', 'Sofia', 'Ruben', 'Yara', 'Lars',
  'Chiara', 'Dmitri', 'Nadia', 'Oskar', 'Leila', 'Fergus', 'Marta', 'Emeka', 'Annika', 'Hugo', 'Zeynep', 'Pavel', 'Elif', 'Bram',
];
const LAST_NAMES = [
  'Vogt', 'Haddad', 'Berg', 'Ferraro', 'Raman', 'Nowak', 'Lindqvist', 'Alvarez', 'Byrne', 'Mensah', 'Costa', 'Janssen', 'Khalil',
  'Eriksen', 'Moretti', 'Volkov', 'Rahimi', 'Holm', 'Navarro', 'Doyle', 'Kowalczyk', 'Okafor', 'Virtanen', 'Laurent', 'Aydin',
  'Novak', 'Peeters', 'Sorensen',
];
/** The mobile carrier of an SMS outage, in the customer's country. */
const CARRIERS: Record<string, string> = {
  PT: 'MEO PT', NO: 'Telenor NO', IE: 'Three IE', FR: 'Orange FR', DE: 'Telekom DE', NL: 'KPN NL', SE: 'Telia SE', GB: 'EE GB',
  ES: 'Movistar ES', IT: 'Vodafone IT', PL: 'Play PL', BE: 'Proximus BE', FI: 'Elisa FI', DK: 'TDC DK', AT: 'A1 AT',
};
const AGENTS = ['l.mensah', 'r.kaur', 'd.fischer', 'm.oconnell', 's.ito', 'a.petrov'];
const STREETS = ['Rua Garrett', 'Kongens gate', 'Baggot Street', 'Rue de la Republique', 'Leopoldstrasse', 'Oudegracht', 'Kungsgatan', 'Park Row'];

/** Day-of-year numbers of 1 May and 3 June 2026: the stretch generator versions 1 and 2 never draw a clock in. */
const MAY_FIRST = 121;
const MAY_SKIPPED = 34;

/**
 * A working day's hour somewhere in 2026; the year's first and last days are left out so windows stay in it.
 * Versions 1 and 2 drew no clock in May or the first days of June, a guard against the claims engine reading the
 * month "May" as the modal verb (a sign-in date told as "15 May" made its sentence a hedge). Graders 2 and 3 read
 * the month beside a day number (family.spec.ts: the solver scores 1.0 on May clocks with the month told in every
 * sentence), so generator version 3 draws from the whole year.
 */
function drawClock(draws: Draws, wholeYear: boolean): number {
  const skipped = wholeYear ? 0 : MAY_SKIPPED;
  let day = draws.int(8, 355 - skipped);
  if (day >= MAY_FIRST) day += skipped;
  return Date.UTC(2026, 0, 1) + (day - 1) * 24 * HOUR + draws.int(7, 17) * HOUR + draws.pick([0, 10, 20, 30, 40, 50]) * 60_000;
}

function drawNames(draws: Draws, count: number): { first: string; last: string }[] {
  // Distinct first and last names, so a greeting or a name in a reply points at one customer only.
  const firsts = draws.sample(FIRST_NAMES, count);
  const lasts = draws.sample(LAST_NAMES, count);
  return firsts.map((first, i) => ({ first, last: lasts[i] }));
}

function timelineFor(draws: Draws, kind: CaseKind, person: Person, clock: number, windowHours: number): Activity[] {
  if (kind === 'takeover') return inOrder(takeoverTimeline(draws, person, clock, windowHours), clock);
  if (kind === 'login_alert') return inOrder(loginAlertTimeline(draws, person, clock), clock);
  return inOrder(forgottenTimeline(draws, person, clock), clock);
}

/** A ticket before its id is drawn. */
type Draft = Omit<Ticket, 'id'>;

function fullName(p: Person): string {
  return `${p.first} ${p.last}`;
}

/** One account case of any kind for any customer: their message and the event log behind it. */
function accountCase(draws: Draws, kind: CaseKind, person: Person, clock: number, windowHours: number) {
  const timeline = timelineFor(draws, kind, person, clock, windowHours);
  const framing = draws.pick(framingsFor(kind, timeline));
  const message = customerMessage(draws, kind, framing, person, timeline, clock);
  return { timeline, framing, message, events: timeline.map(eventOf) };
}

/**
 * Another customer's account case, already handled or not this agent's to act on: a takeover already escalated
 * (pending with security_ops), a sign-in alert settled by phone, a forgotten password open or settled.
 */
function bystanderCase(draws: Draws, kind: CaseKind, person: Person, clock: number, windowHours: number, settled: boolean): Draft {
  const c = accountCase(draws, kind, person, clock, windowHours);
  const last = Math.max(...c.timeline.map((a) => a.at));
  const noteAt = Math.min(clock - 5 * 60_000, last + draws.int(20, 90) * 60_000);
  const agent = draws.pick(AGENTS);
  const customer = { name: fullName(person), tier: person.tier, account: person.account };
  const common = { customer, subject: c.message.subject, body: c.message.body, contract_notes: contractNotes(person) };
  if (kind === 'takeover') {
    const note = { at: isoSeconds(noteAt), kind: 'note', detail: `Escalated to security_ops; identity verification call booked (agent: ${agent})` };
    return { ...common, recent_events: [...c.events, note], priority: 'urgent', team: 'security_ops', status: 'pending' };
  }
  if (kind === 'login_alert' || settled) {
    const detail = kind === 'login_alert' ? `Customer confirmed by phone the sign-in was their own (agent: ${agent})` : `New reset link sent; customer confirmed they are back in (agent: ${agent})`;
    return { ...common, recent_events: [...c.events, { at: isoSeconds(noteAt), kind: 'note', detail }], priority: 'normal', team: 'general_support', status: 'resolved' };
  }
  return { ...common, recent_events: c.events, priority: 'normal', team: null, status: 'open' };
}

const SAME_CUSTOMER_TOPICS: Topic[] = ['billingAddress', 'invoiceCopy', 'seats', 'retention'];

/** The same customer's other ticket, about something that is not their account's security. */
function sameCustomerTicket(draws: Draws, person: Person, topic: Topic): Draft {
  let subject: string;
  let body: string;
  if (topic === 'billingAddress') {
    subject = 'Please update our invoice address';
    body = `Our office moved. New billing address: ${draws.pick(STREETS)} ${draws.int(2, 140)}, ${draws.digits(4)} ${person.usual[0].city}. Please use it from the next invoice.`;
  } else if (topic === 'invoiceCopy') {
    const invoice = `INV-${draws.digits(5)}`;
    subject = `Copy of invoice ${invoice}`;
    body = `Could you send me a PDF copy of invoice ${invoice}? Our accountant needs it for the quarterly close.`;
  } else if (topic === 'seats') {
    const seats = draws.pick(['two', 'three', 'five']);
    subject = `Adding ${seats} seats`;
    body = `We're hiring ${seats} people next month. Can we add ${seats} seats to our plan, and how is it charged?`;
  } else {
    subject = 'How long do you keep deleted projects?';
    body = 'Our auditor asks how long deleted project files are kept after we delete them. Can you tell me?';
  }
  const resolved = draws.chance(1, 4);
  return {
    customer: { name: fullName(person), tier: person.tier, account: person.account },
    subject,
    body,
    contract_notes: contractNotes(person),
    recent_events: [],
    priority: 'low',
    // Retention questions belong to general support; the rest is billing's.
    team: resolved || draws.chance(1, 2) ? (topic === 'retention' ? 'general_support' : 'billing') : null,
    status: resolved ? 'resolved' : 'open',
  };
}

/** A ticket about something else entirely: SMS codes not arriving, or a question about rotating keys. */
function unrelatedTicket(draws: Draws, person: Person, clock: number): { draft: Draft; topic: Topic } {
  const customer = { name: fullName(person), tier: person.tier, account: person.account };
  if (draws.chance(1, 2)) {
    const carrier = CARRIERS[person.usual[0].cc];
    const at = isoSeconds(clock - draws.int(60, 600) * 60_000 - draws.int(0, 59) * 1000);
    return {
      topic: 'sms',
      draft: {
        customer,
        subject: '2FA text messages not arriving',
        body: "Since yesterday I don't receive the SMS codes for two-factor login. Phone number hasn't changed.",
        contract_notes: contractNotes(person),
        recent_events: [{ at, kind: 'sms', detail: `SMS provider reported delivery failures for carrier ${carrier}` }],
        priority: 'normal',
        team: null,
        status: 'open',
      },
    };
  }
  return {
    topic: 'apiKeys',
    draft: {
      customer,
      subject: 'Rotating API keys without downtime?',
      body: 'Our security team wants all API keys rotated every quarter. Is there a way to do it without breaking our nightly sync?',
      contract_notes: contractNotes(person),
      recent_events: [],
      priority: 'low',
      team: null,
      status: 'open',
    },
  };
}

function instruction(name: string, clock: number): string {
  return (
    `You are a Tier-1 support agent at Northwind Cloud. ${name} has written in about trouble with their account. ` +
    "Find their ticket, decide from the account events and the security policies what kind of case it is, set the ticket's priority and team, tell the customer what they need to know, and resolve the case. " +
    `It is now ${clockTime(clock)} UTC on ${longDate(clock)}. ` +
    'Resolving a ticket ends the episode: resolve only the ticket that needs action, as your last step; changing or replying on tickets that need no action costs points.'
  );
}

/** Every instance of this family gets the same step budget. */
const MAX_STEPS = 14;

/** What one seed draws, with the facts generator version 4 builds its case on (its customer, clock and ids). */
export interface SecurityDraw {
  task: Task;
  customer: Person;
  clock: number;
  targetId: string;
  windowHours: number;
  expiryMinutes: number;
  ids: ReturnType<typeof articleIds>;
  topics: Topic[];
}

export function generateSecurityCompromisedAccount(seed: number, options: { wholeYear?: boolean } = {}): Task {
  return drawSecurityInstance(seed, options).task;
}

export function drawSecurityInstance(seed: number, options: { wholeYear?: boolean } = {}): SecurityDraw {
  const draws = new Draws(seed, SALT);
  // The generator's first outputs follow the seed almost linearly (seed n and n+1 give neighbouring first
  // draws), so they are spent before anything is drawn from them.
  for (let i = 0; i < WARM_UP_DRAWS; i++) draws.int(0, 1);
  const clock = drawClock(draws, options.wholeYear ?? false);
  const names = drawNames(draws, 6);
  const people = names.map((n) => drawPerson(draws, n.first, n.last, clock));
  const customer = people[0];
  const kind = pickKind(draws);
  const windowHours = draws.pick(WINDOWS);
  const expiryMinutes = draws.pick(EXPIRIES);
  const target = accountCase(draws, kind, customer, clock, windowHours);
  const presetPriority: Priority = draws.pick(['low', 'normal', 'normal', 'high']);
  const presetTeam: Team | null = draws.pick([null, null, 'general_support', 'technical_support', 'security_ops']);

  const sameTopic = draws.pick(SAME_CUSTOMER_TOPICS);
  // The target first: it keeps index 0 through the id draw below.
  const drafts: Draft[] = [
    {
      customer: { name: fullName(customer), tier: customer.tier, account: customer.account },
      subject: target.message.subject,
      body: target.message.body,
      contract_notes: contractNotes(customer),
      recent_events: target.events,
      priority: presetPriority,
      team: presetTeam,
      status: 'open',
    },
    sameCustomerTicket(draws, customer, sameTopic),
  ];
  // The other two kinds from other customers, and the target's kind again from someone whose case is settled.
  const others = (['takeover', 'login_alert', 'forgotten_password'] as CaseKind[]).filter((k) => k !== kind);
  drafts.push(bystanderCase(draws, others[0], people[1], clock, windowHours, false));
  drafts.push(bystanderCase(draws, others[1], people[2], clock, windowHours, false));
  drafts.push(bystanderCase(draws, kind, people[3], clock, windowHours, true));
  const topics: Topic[] = [sameTopic];
  if (draws.chance(1, 2)) {
    const unrelated = unrelatedTicket(draws, people[4], clock);
    drafts.push(unrelated.draft);
    topics.push(unrelated.topic);
  }

  // Ticket ids: a drawn block, in a drawn order, so neither the number nor the position of the target repeats.
  const base = draws.int(1200, 8800);
  const offsets = draws.sample(Array.from({ length: 40 }, (_, i) => i + 1), drafts.length);
  const inbox: Ticket[] = drafts.map((d, i) => ({ id: `T-${base + offsets[i]}`, ...d }));
  const order = draws.sample(inbox, inbox.length);
  const targetId = inbox[0].id;

  const ids = articleIds(draws);
  if (!topics.includes('apiKeys') && draws.chance(1, 2)) topics.push('apiKeys');
  const articles: Article[] = [
    takeoverArticle(ids.takeover, windowHours),
    loginAlertArticle(ids.loginAlert, ids.takeover),
    forgottenArticle(ids.forgotten, ids.takeover, expiryMinutes),
    priorityGuide(ids.guide),
    ...topics.map((t) => TOPIC_ARTICLES[t](ids.topics[t])),
  ];
  const knowledgeBase = draws.sample(articles, articles.length);

  const task: Task = {
    id: 'security_compromised_account',
    difficulty: 'medium',
    title: 'Account security: takeover, sign-in alert or forgotten password',
    instruction: instruction(fullName(customer), clock),
    clock: new Date(clock).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    max_steps: MAX_STEPS,
    inbox: order,
    knowledge_base: knowledgeBase,
    answer_key: answerKey({
      kind,
      timeline: target.timeline,
      usual: customer.usual,
      clock,
      targetId,
      otherTicketIds: order.map((t) => t.id).filter((id) => id !== targetId),
      articles: ids,
      parameters: { windowHours, expiryMinutes },
      otherExpiries: EXPIRIES.filter((m) => m !== expiryMinutes),
    }),
  };
  return { task, customer, clock, targetId, windowHours, expiryMinutes, ids, topics };
}

/** The facts that decide the answer: two instances with the same string would be solved the same way. */
function fingerprint(task: Task): string {
  const key = task.answer_key;
  const target = task.inbox.find((t) => t.id === key.target_ticket_id)!;
  const claims = (key.reply_claims ?? []).map((c) => ('date' in c ? c.date : 'min' in c ? `${c.min}${c.unit}` : c.kind === 'action' ? [...c.objects, ...(c.qualifiers ?? [])].join('/') : c.id));
  return [
    key.target_ticket_id,
    target.customer.name,
    task.clock,
    key.resolution.code,
    key.required_article_ids.join(','),
    claims.join(';'),
    target.recent_events.map((e) => `${e.at} ${e.detail}`).join('|'),
  ].join('#');
}

export const securityCompromisedAccount: TaskFamily = {
  id: 'security_compromised_account',
  domain: 'security',
  difficulty: 'medium',
  title: 'Account security: takeover, sign-in alert or forgotten password',
  generatorVersion: 1,
  canonical,
  varies:
    'The customer (name, tier, account, usual sign-in locations, MFA) and the task clock; the case kind (about half takeovers, a quarter sign-in alerts with nothing changed, a quarter forgotten passwords) and the event log behind it: where and when the unrecognised sign-in happened, new device or only a new country, which changes followed (password, MFA, API keys with drawn names, bulk export), when the alerts were emailed and whether the intruder came back or the locked-out customer asked for a reset, the customer\'s own older sign-ins (from a new address they send alerts too), keys and password changes; the takeover policy\'s key revocation window (24, 48 or 72 hours, so which keys are revoked depends on it and the clock) and the reset link\'s lifetime (15, 30 or 60 minutes); how the customer words it (alarmed, locked out or unbothered, drawn apart from the case); ticket and article ids; the preset priority and team; the other tickets (the same customer\'s billing question, the other two kinds from other customers, the same kind already settled, sometimes an unrelated one).',
  hard:
    'The account events, not the customer\'s words, decide the case: a takeover customer may only ask for a reset link or mention a sign-in email, a forgotten-password customer may fear they were hacked. Following the first hit of a search on the ticket\'s subject fails: mean 0.53 on seeds 0-199, mean ≤ 0.6. A new sign-in alert says nothing on its own: the customer\'s own sign-ins from a new address send one too, in every kind of case, and the intruder\'s may arrive after the changes; reading the case from the alerts (none: forgotten password; one followed by a change: takeover; else a sign-in alert) scores 0.67. The contract notes hold the usual sign-in locations, so ignoring them takes the customer\'s own earlier sign-ins for unrecognised ones, which turns most forgotten-password and sign-in-alert cases into the wrong kind: mean 0.64 on seeds 0-199, mean ≤ 0.69.',
  maxSteps: { min: MAX_STEPS, max: MAX_STEPS },
  distinctInstances: FIRST_NAMES.length * LAST_NAMES.length * (348 - MAY_SKIPPED) * 3 * WINDOWS.length * 7600,
  generate: (seed) => generateSecurityCompromisedAccount(seed),
  fingerprint,
};

/** Generator version 2: version 1's instances, seed for seed, each declaring the family's lexicon (lexicon.ts). */
export const securityCompromisedAccountV2: TaskFamily = declaringLexicon(securityCompromisedAccount, 2, SECURITY_LEXICON);

/**
 * Generator version 3: clocks drawn from the whole year, May included (version 2 skipped May and early June for
 * grader version 2's sake), each instance declaring the family's lexicon. Every other draw is version 2's.
 */
export const securityCompromisedAccountV3: TaskFamily = declaringLexicon(
  {
    ...securityCompromisedAccount,
    distinctInstances: FIRST_NAMES.length * LAST_NAMES.length * 348 * 3 * WINDOWS.length * 7600,
    generate: (seed) => generateSecurityCompromisedAccount(seed, { wholeYear: true }),
  },
  3,
  SECURITY_LEXICON,
);

/**
 * Generator version 4 (issue 23, a low prior): six kinds of account case — a takeover, a password known to someone
 * else (stopped at the MFA code), a sign-in alert with nothing changed, failed attempts from an unfamiliar place, an
 * account locked after failed sign-ins, a forgotten password — worded alike by the customer (pools drawn apart from
 * the kind) and told apart only by the event log read against the usual locations in the contract notes and the
 * triage article's lock threshold for this instance; the priority follows the kind's policy, the tier and the seats
 * against this instance's business-critical threshold, the team the kind and the annual contract value against this
 * instance's account-team line. Version 3's customer, clock, distractors and ids, drawn from the same seed; the
 * canonical instance is version 2's.
 */
const IDS_SALT = 0x5ec05;

function generateCase(seed: number): Task {
  const base = drawSecurityInstance(seed, { wholeYear: true });
  const c = drawG4Case(seed, base.customer, base.clock, base.windowHours, base.expiryMinutes);
  const d = new Draws(seed, IDS_SALT);
  const used = new Set([base.ids.takeover, base.ids.loginAlert, base.ids.forgotten, ...Object.values(base.ids.topics)]);
  const free = (prefix: string, from: number, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${from + i}`).filter((id) => !used.has(id));
  const [triage, exposed, blocked] = d.sample(free('KB-SEC', 301, 90), 3);
  const lockout = d.pick(free('KB-ACC', 101, 89));
  const ids: G4ArticleIds = {
    triage,
    guide: base.ids.guide,
    topics: base.ids.topics,
    kinds: { takeover: base.ids.takeover, password_exposed: exposed, login_alert: base.ids.loginAlert, blocked_attempts: blocked, lockout, forgotten_password: base.ids.forgotten },
  };
  const articles = caseKnowledgeBase(c, ids, base.topics);
  const message = caseMessage(c);
  const notes = caseContractNotes(c);
  const name = fullName(base.customer);
  const inbox = base.task.inbox.map((t): Ticket => {
    if (t.id === base.targetId) {
      return { ...t, customer: { ...t.customer, tier: c.tier }, subject: message.subject, body: message.body, contract_notes: notes, recent_events: c.timeline.map(eventG4) };
    }
    // The same customer's other ticket carries the same account's tier and notes.
    return t.customer.name === name ? { ...t, customer: { ...t.customer, tier: c.tier }, contract_notes: notes } : t;
  });
  return {
    ...base.task,
    inbox,
    knowledge_base: d.sample(articles, articles.length),
    answer_key: buildG4AnswerKey(
      c,
      base.clock,
      base.targetId,
      inbox.map((t) => t.id).filter((id) => id !== base.targetId),
      ids,
    ),
  };
}

const caseFamily: TaskFamily = {
  ...securityCompromisedAccount,
  title: 'Account security: takeover, exposed password, sign-in alert, blocked attempts, lockout or forgotten password',
  generatorVersion: 4,
  varies:
    `The case kind (${CASE_KINDS.join(', ')}, drawn evenly) and the event log behind it (the customer's own sign-ins, alerts, password changes, read-only keys and exports in the days before, in every kind; then the intruder's sign-in and changes, an attempt with the right password stopped at the MFA code, a new device or trip, failed attempts from an unfamiliar place, or the customer's own failed sign-ins, fewer or more than lock the account, and a reset they asked for); ` +
    'the customer\'s tier (standard, premium, VIP), seats and price per seat; the knowledge base\'s figures (failed sign-ins that lock an account 3-10, the business-critical seat threshold 15-60, the annual contract value from which the account team owns the case $30,000-$80,000, the lock\'s hours 2-24, the key-revocation window 24-72 hours, the reset link\'s lifetime 15-60 minutes); ' +
    'the customer\'s wording, drawn from pools apart from the kind; version 3\'s customers, clock, ids, presets and distractors.',
  hard:
    'The customer words every kind alike; the kind shows only in the event log read against the usual sign-in locations in the contract notes (which sign-in or attempt is unrecognised, what followed it, whether it failed at the password or at the MFA code) and the triage article\'s lock threshold for this instance (how many failed sign-ins in a row lock the account). ' +
    'The priority needs the kind\'s policy, the tier and the seats in the contract notes against this instance\'s business-critical threshold; the team, the kind and the contract\'s annual value (seats times the price per seat) against this instance\'s account-team line. Ignoring the contract notes takes every sign-in for an unrecognised one and loses the seats and the contract\'s value: mean 0.32 on seeds 0-199, mean ≤ 0.4. ' +
    'Following the first hit of a search on the ticket\'s subject follows the triage article (which sets nothing) or a policy for another kind: mean 0.16, mean ≤ 0.25.',
  // Kind 6 x tier 3 x seats 20 x seat price 4, on top of version 3's draws (a lower bound: the lock threshold, the seat
  // threshold, the account-team line, the lock hours and the wording come on top).
  distinctInstances: FIRST_NAMES.length * LAST_NAMES.length * 348 * 3 * WINDOWS.length * 7600 * 6 * 3 * 20 * 4,
  generate: generateCase,
};

/** Generator version 4: the case kinds above, each instance declaring the family's lexicon. */
export const securityCompromisedAccountV4: TaskFamily = declaringLexicon(caseFamily, 4, SECURITY_LEXICON);

/*
 * Generator version 5 (issue 23, a low prior: version 4's commonest decision, a takeover of a small standard account,
 * scored 1.0 on 12% of test seeds): nine kinds of account case — the takeover split by what the intruder did (data
 * exported, API keys created, the password or MFA changed), each with its own containment; a password known to
 * someone else; a sign-in alert; blocked attempts; the customer stopped at their own MFA code; a lockout; a forgotten
 * password — the priority set by the triage article from the case's urgency (a rule per kind, against this
 * instance's recent window or the events) and the impact (seats against this instance's threshold); blocked attempts
 * escalated when they reach the policy's burst size; the team vip_concierge when the annual contract value reaches
 * this instance's line, else security_ops under the Security Assurance addendum, else the incident policies' team or
 * the support-tier desk for the customer's tier. Version 3's customer, clock, distractors and ids, drawn from the
 * same seed; the canonical instance is version 2's.
 */
const IDS5_SALT = 0x5ec56;

function generateCase5(seed: number, version: 5 | 6 = 5): Task {
  const base = drawSecurityInstance(seed, { wholeYear: true });
  const c = drawG5Case(seed, base.customer, base.clock, base.windowHours, base.expiryMinutes, version);
  const d = new Draws(seed, IDS5_SALT);
  const used = new Set([base.ids.takeover, base.ids.loginAlert, base.ids.forgotten, ...Object.values(base.ids.topics)]);
  const free = (prefix: string, from: number, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${from + i}`).filter((id) => !used.has(id));
  const [triage, exported, keys, exposed, blocked, mfa] = d.sample(free('KB-SEC', 301, 90), 6);
  const lockout = d.pick(free('KB-ACC', 101, 89));
  const ids: G5ArticleIds = {
    triage,
    guide: base.ids.guide,
    topics: base.ids.topics,
    kinds: {
      takeover_export: exported,
      takeover_keys: keys,
      takeover_credentials: base.ids.takeover,
      password_exposed: exposed,
      login_alert: base.ids.loginAlert,
      blocked_attempts: blocked,
      mfa_trouble: mfa,
      lockout,
      forgotten_password: base.ids.forgotten,
    },
  };
  const articles = case5KnowledgeBase(c, ids, base.topics);
  const message = caseMessage({ wording: c.wording, person: c.person } as unknown as G4Case);
  const notes = case5ContractNotes(c);
  const name = fullName(base.customer);
  const inbox = base.task.inbox.map((t): Ticket => {
    if (t.id === base.targetId) {
      return { ...t, customer: { ...t.customer, tier: c.tier }, subject: message.subject, body: message.body, contract_notes: notes, recent_events: c.timeline.map(eventG4) };
    }
    return t.customer.name === name ? { ...t, customer: { ...t.customer, tier: c.tier }, contract_notes: notes } : t;
  });
  return {
    ...base.task,
    title: case5Family.title,
    inbox,
    knowledge_base: d.sample(articles, articles.length),
    answer_key: buildG5AnswerKey(
      c,
      base.clock,
      base.targetId,
      inbox.map((t) => t.id).filter((id) => id !== base.targetId),
      ids,
    ),
  };
}

const case5Family: TaskFamily = {
  ...securityCompromisedAccount,
  title: 'Account security: takeovers, exposed password, sign-in alert, blocked attempts, MFA trouble, lockout or forgotten password',
  generatorVersion: 5,
  varies:
    `The case kind (${G5_KINDS.join(', ')}; each takeover a quarter as often as most other kinds, the exposed password half as often) and the event log behind it (the customer's own activity of the days before, in every kind; then the intruder's sign-in and what they did — a data export, API keys, a password or MFA change — an attempt with the right password stopped at the MFA code, a new device or trip, failed attempts from an unfamiliar place, fewer or more than the burst size, the customer's own attempts stopped at the MFA code, or their own failed sign-ins, fewer or more than lock the account, and a reset they asked for); ` +
    "the customer's tier (which picks the support-tier desk), seats, annual contract value and the Security Assurance addendum; the knowledge base's figures (failed sign-ins that lock an account 3-8, the business-critical seat threshold 10-50, the account-team line $65,000-$115,000, the recent window 6-36 hours, the burst of blocked attempts 4-7, the lock's hours 2-24, the key-revocation window 24-72 hours, the reset link's lifetime 15-60 minutes); " +
    "the customer's wording, drawn from pools apart from the kind; version 3's customers, clock, ids, presets and distractors.",
  hard:
    'The customer words every kind alike; the kind shows only in the event log read against the usual sign-in locations in the contract notes (which sign-in or attempt is unrecognised, what the intruder did after it, whether an attempt failed at the password or at the MFA code, and where) and the triage article\'s lock threshold. ' +
    'The priority needs the triage article\'s urgency rule for the kind, against this instance\'s recent window or the events (codes tried, a reset asked for), and the seats against this instance\'s threshold; the resolution of blocked attempts their count against the policy\'s burst size; the team the contract value against this instance\'s line, the addendum in the contract notes, then the kind\'s team or the support-tier desk for the tier. Ignoring the contract notes takes every sign-in for an unrecognised one and loses the seats, the contract value and the addendum: mean 0.25 on seeds 0-199, mean ≤ 0.4. ' +
    'Following the first hit of a search on the ticket\'s subject follows the triage article (which names no resolution) or a policy for another kind: mean 0.16, mean ≤ 0.25.',
  // Kind 9 x tier 3 x seats 16 x contract value 436 x addendum 2, on top of version 3's draws (a lower bound: the
  // knowledge base's figures and the wording come on top).
  distinctInstances: FIRST_NAMES.length * LAST_NAMES.length * 348 * 3 * WINDOWS.length * 7600 * 9 * 3 * 16 * 436 * 2,
  generate: (seed) => generateCase5(seed),
};

/** Generator version 5: the case kinds above, each instance declaring the family's lexicon. */
export const securityCompromisedAccountV5: TaskFamily = declaringLexicon(case5Family, 5, SECURITY_LEXICON);

/*
 * Generator version 6 (a low prior: under grader versions 8 and 9, version 5's best one-feature rule learned on train,
 * "note:first" — the premium and VIP response-target note — then high, technical_support, no action, worked as
 * blocked attempts, scored 1.0 on 4% of test seeds): version 5's nine kinds and policies, with the support-tier desk
 * of each tier drawn per instance and stated in the triage article's desk rota (general_support or technical_support
 * for each of standard, premium and VIP), so the tier alone tells no team; a support-tier note for every tier (version
 * 5 had none for standard) in one of four wordings; and the kinds, priorities and codes spread evenly (new kind weights,
 * the sign-in alert, MFA trouble and blocked attempts 1-40 hours before the clock, 3-10 blocked attempts, the addendum on
 * a sixth of the accounts), so that no decision is asked by much more than 1.5% of instances and each priority, team and
 * resolution by about a quarter. The MFA-trouble verification rule is credited in more of its wordings (case5-key.ts,
 * `mfaVerificationClaim`). Version 3's customer, clock, distractors and
 * ids, drawn from the same seed; the case's draws from their own salt; the canonical instance is version 2's.
 */
const case6Family: TaskFamily = {
  ...case5Family,
  generatorVersion: 6,
  varies:
    `The case kind (${G5_KINDS.join(', ')}; each takeover about a fifth as often as most other kinds, the exposed password about half as often) and the event log behind it (the customer's own activity of the days before, in every kind; then the intruder's sign-in and what they did — a data export, API keys, a password or MFA change — an attempt with the right password stopped at the MFA code, a new device or trip, failed attempts from an unfamiliar place, fewer or more than the burst size, the customer's own attempts stopped at the MFA code, or their own failed sign-ins, fewer or more than lock the account, and a reset they asked for; the sign-in alert, MFA trouble and blocked attempts 1-40 hours before the clock, 3-10 blocked attempts); ` +
    "the customer's tier and its note's wording, seats, annual contract value and the Security Assurance addendum; the knowledge base's figures (the desk rota: the support-tier desk of each tier, general_support or technical_support; failed sign-ins that lock an account 3-8, the business-critical seat threshold 10-50, the account-team line $65,000-$115,000, the recent window 6-36 hours, the burst of blocked attempts 4-7, the lock's hours 2-24, the key-revocation window 24-72 hours, the reset link's lifetime 15-60 minutes); " +
    "the customer's wording, drawn from pools apart from the kind; version 3's customers, clock, ids, presets and distractors.",
  hard:
    'The customer words every kind alike; the kind shows only in the event log read against the usual sign-in locations in the contract notes (which sign-in or attempt is unrecognised, what the intruder did after it, whether an attempt failed at the password or at the MFA code, and where) and the triage article\'s lock threshold. ' +
    'The priority needs the triage article\'s urgency rule for the kind, against this instance\'s recent window or the events (codes tried, a reset asked for), and the seats against this instance\'s threshold; the resolution of blocked attempts their count against the policy\'s burst size; the team the contract value against this instance\'s line, the addendum in the contract notes, then the kind\'s team or the desk this instance\'s rota gives the customer\'s tier. Ignoring the contract notes takes every sign-in for an unrecognised one and loses the seats, the contract value and the addendum: mean 0.26 on seeds 0-199, mean ≤ 0.4. ' +
    'Following the first hit of a search on the ticket\'s subject follows the triage article (which names no resolution) or a policy for another kind: mean 0.17, mean ≤ 0.25.',
  // Version 5's count, times the desk rota (2 x 2 x 2) and the tier note's wording (4).
  distinctInstances: case5Family.distinctInstances * 8 * 4,
  generate: (seed) => generateCase5(seed, 6),
};

/** Generator version 6: version 5's kinds with a desk rota per instance, each instance declaring the family's lexicon. */
export const securityCompromisedAccountV6: TaskFamily = declaringLexicon(case6Family, 6, SECURITY_LEXICON);

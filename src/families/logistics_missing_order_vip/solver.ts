import { type Action, type ActiveTicketView, type Observation, type SearchHit, type Priority, type ResolutionCode, type Team, type SolverEnvironment, type Solve, type SolverOptions, type FamilySolver } from '../kit';
import { DAY_MS, HOUR_MS, MONTHS, WEEKDAYS, usd, usdUngrouped } from '../shared';

/*
 * The reference solver of the logistics family, a careful agent reading only what the API shows: the instruction
 * (for the clock), the inbox, the tickets it opens (body, contract notes, carrier events) and the articles its
 * searches return. It finds the ticket whose order is missing and needed for an event, reads the agreement and the
 * carrier events, picks the article that applies and reads its decisions (priority, team, resolution, what to tell
 * the customer) from the article's own sentences, computes the overnight delivery date from the courier article,
 * and writes the reply in its own words. On generator version 4 (below, `solveCase`) it reads the triage article and
 * the courier article first and works the case as one of six kinds.
 */

/** What the instruction says the customer needs the order for: an event of some kind. */
const EVENT_WORDS = /\b(event|conference|launch|trade show|summit|exhibition|gala|awards|roadshow|festival|expo)\b/i;
const ORDER_ID = /\bSO-\d+\b/;

/** The customer's own words for the problem: the first search, and the one a hurried agent would trust. */
const CUSTOMER_WORDS_QUERY = 'order not arrived';
const QUERIES = {
  standard: ['standard premium customer order not arrived', 'standard premium missing order trace'],
  vipEvent: ['VIP event-critical order lost stalled carrier custody', 'event-critical shipment incident VIP replacement'],
  vipDelayed: ['VIP delayed shipment not event-critical', 'VIP late order carrier trace goodwill'],
  courier: ['overnight priority courier delivery times', 'courier options delivery times'],
};

interface Clock {
  day: number;
  minutes: number;
  /** The clock as a UTC instant (carrier events are logged in UTC). */
  instant: number;
}

interface Agreement {
  team: Team | null;
  credit: number | null;
  thresholdHours: number | null;
}

interface CaseFacts {
  tier: string;
  firstName: string;
  order: string;
  agreement: Agreement | null;
  flagged: boolean;
  lost: boolean;
  hoursStalled: number;
}

export const solveLogisticsMissingOrderVip: Solve = (env: SolverEnvironment, options: SolverOptions = {}) => {
  const clock = readClock(env.first.instruction);
  const ticket = openTarget(env);
  if (!ticket || !clock) return;
  const facts = readCase(ticket, options.ignoreContractNotes ? [] : ticket.contract_notes, clock);

  const first = search(env, CUSTOMER_WORDS_QUERY);
  // Generator version 4's knowledge base has a triage article naming the policy for each kind of case, and policies
  // of its own (versions 1-3's searches and trajectories are left exactly as they were).
  if (first.some((hit) => CASE_TITLE.test(hit.title))) {
    solveCase(env, ticket, first, clock, options);
    return;
  }
  // The customer's words rank the standard article first; its "When it applies" excludes VIP accounts, so a careful
  // agent reads on, and a discriminating search (words the instruction does not use) finds the article that applies.
  const policy = options.firstSearchHit ? first[0] : choosePolicy(env, facts, options.readCaseAs);
  if (!policy) return;
  const plan = readPolicy(policy, facts);
  const courier = plan.code === 'replacement_dispatched' ? findArticle(env, QUERIES.courier, /overnight priority courier/i) : undefined;

  if (plan.priority) step(env, { type: 'set_priority', priority: plan.priority });
  if (plan.team) step(env, { type: 'route_ticket', team: plan.team });
  step(env, { type: 'send_reply', message: reply(facts, plan, courier, clock) });
  if (plan.code === 'replacement_dispatched') step(env, { type: 'resolve_ticket', resolution: plan.code, ...(plan.credit !== null ? { amount: plan.credit } : {}) });
  else if (plan.code) step(env, { type: 'resolve_ticket', resolution: plan.code });
};

function step(env: SolverEnvironment, action: Action): Observation | null {
  if (env.done) return null;
  return env.step(action).observation;
}

function search(env: SolverEnvironment, query: string): SearchHit[] {
  return step(env, { type: 'search_policy', query })?.search_results?.results ?? [];
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the instruction and the inbox

/** "Today is Thursday 26 November 2026, 10:00 UK time." */
function readClock(instruction: string): Clock | null {
  const m = /Today is \w+ (\d{1,2}) (\w+) (\d{4}), (\d{2}):(\d{2}) UK time/.exec(instruction);
  if (!m) return null;
  const day = Date.UTC(Number(m[3]), MONTHS.findIndex((month) => month.toLowerCase() === m[2].toLowerCase()), Number(m[1]));
  const minutes = Number(m[4]) * 60 + Number(m[5]);
  return { day, minutes, instant: day + (minutes - ukOffsetMinutes(day)) * 60_000 };
}

/** UK summer time runs from the last Sunday of March to the last Sunday of October. */
function ukOffsetMinutes(day: number): number {
  const year = new Date(day).getUTCFullYear();
  const lastSunday = (month: number) => {
    let d = Date.UTC(year, month, 0);
    while (new Date(d).getUTCDay() !== 0) d -= DAY_MS;
    return d;
  };
  return day >= lastSunday(3) && day < lastSunday(10) ? 60 : 0;
}

/**
 * Opens the open tickets, likeliest first (a subject about a missing order), until one is about an order that has
 * not arrived and is needed for an event: that is the ticket the instruction describes. Opening costs nothing.
 */
function openTarget(env: SolverEnvironment): ActiveTicketView | null {
  const missing = /missing|not here|haven't arrived|hasn't arrived|still not|stuck|lost/i;
  const candidates = env.first.inbox
    .filter((t) => t.status !== 'resolved')
    .sort((a, b) => Number(EVENT_WORDS.test(b.subject)) * 2 + Number(missing.test(b.subject)) - (Number(EVENT_WORDS.test(a.subject)) * 2 + Number(missing.test(a.subject))));
  for (const entry of candidates) {
    const ticket = step(env, { type: 'open_ticket', ticket_id: entry.ticket_id })?.active_ticket;
    if (ticket && ORDER_ID.test(ticket.body) && EVENT_WORDS.test(ticket.body)) return ticket;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the ticket: the agreement in the contract notes, and the carrier events

function readCase(ticket: ActiveTicketView, notes: string[], clock: Clock): CaseFacts {
  const order = ORDER_ID.exec(ticket.body)?.[0] ?? '';
  const scans = ticket.recent_events.filter((e) => e.kind === 'carrier_scan' || e.kind === 'shipment').map((e) => Date.parse(e.at));
  const lastScan = scans.length ? Math.max(...scans) : clock.instant;
  return {
    tier: ticket.customer.tier,
    firstName: ticket.customer.name.split(/\s+/)[0],
    order,
    agreement: readAgreement(notes),
    flagged: notes.some((n) => /flagged event-critical/i.test(n) && !/without the event-critical flag/i.test(n)),
    lost: ticket.recent_events.some((e) => /\blost\b/i.test(e.detail)),
    hoursStalled: Math.floor((clock.instant - lastScan) / HOUR_MS),
  };
}

/** The agreement's clauses, with an amendment's figure in place of the one it replaces. */
function readAgreement(notes: string[]): Agreement | null {
  if (!notes.some((n) => /Service Agreement/i.test(n))) return null;
  const agreement: Agreement = { team: null, credit: null, thresholdHours: null };
  for (const note of notes) {
    const owner = /owned by the (VIP Concierge|Logistics) team/i.exec(note);
    if (owner) agreement.team = /concierge/i.test(owner[1]) ? 'vip_concierge' : 'logistics';
    const clause = /more than (\d+) hours.*shipping credit of \$([\d,]+(?:\.\d{2})?)/i.exec(note);
    if (clause) {
      agreement.thresholdHours ??= Number(clause[1]);
      agreement.credit ??= amount(clause[2]);
    }
  }
  for (const note of notes) {
    const credit = /shipping credit in .* is now \$([\d,]+(?:\.\d{2})?)/i.exec(note);
    if (credit) agreement.credit = amount(credit[1]);
    const threshold = /threshold in .* is now (\d+) hours/i.exec(note);
    if (threshold) agreement.thresholdHours = Number(threshold[1]);
  }
  return agreement;
}

function amount(text: string): number {
  return Number(text.replace(/,/g, ''));
}

// ---------------------------------------------------------------------------------------------------------------
// Choosing and reading the policy

/**
 * The articles' "When it applies", applied to the facts: standard and premium customers get the standard article
 * whatever the order is for; a VIP order gets the event-critical article when it is flagged and lost or stalled
 * beyond the agreement's threshold, the delayed-shipment article otherwise.
 */
function choosePolicy(env: SolverEnvironment, facts: CaseFacts, readCaseAs?: string): SearchHit | undefined {
  const kind = CASE_KINDS.find((k) => k === readCaseAs) ?? caseOf(facts);
  if (kind === 'standard_trace') return findArticle(env, QUERIES.standard, /standard or premium/i);
  return kind === 'vip_event_replacement' ? findArticle(env, QUERIES.vipEvent, /flagged event-critical for a VIP account/i) : findArticle(env, QUERIES.vipDelayed, /VIP customer's order is late/i);
}

/** The kinds of case the articles tell apart, each followed by its own article. */
const CASE_KINDS = ['vip_event_replacement', 'vip_trace', 'standard_trace'] as const;

function caseOf(facts: CaseFacts): (typeof CASE_KINDS)[number] {
  if (facts.tier !== 'vip') return 'standard_trace';
  const threshold = facts.agreement?.thresholdHours;
  const incident = facts.flagged && (facts.lost || (threshold != null && facts.hoursStalled > threshold));
  return incident ? 'vip_event_replacement' : 'vip_trace';
}

function appliesTo(hit: SearchHit, pattern: RegExp): boolean {
  const when = /When it applies:(.*?)(What to do:|$)/i.exec(hit.body)?.[1] ?? hit.body;
  return pattern.test(when);
}

/** Searches until the article comes out on top (the policy rule counts only the top result). */
function findArticle(env: SolverEnvironment, queries: string[], pattern: RegExp): SearchHit | undefined {
  let seen: SearchHit | undefined;
  for (const query of queries) {
    const results = search(env, query);
    if (results[0] && (appliesTo(results[0], pattern) || pattern.test(results[0].body))) return results[0];
    seen ??= results.find((r) => appliesTo(r, pattern) || pattern.test(r.body));
  }
  return seen;
}

interface Plan {
  priority: Priority | null;
  team: Team | null;
  code: ResolutionCode | null;
  credit: number | null;
  traceDays: number | null;
  goodwill: number | null;
}

/** The decisions, in the article's own sentences; "the team the agreement names" and the credit come from the notes. */
function readPolicy(article: SearchHit, facts: CaseFacts): Plan {
  const body = article.body;
  const priority = /set the priority to (low|normal|high|urgent)/i.exec(body)?.[1].toLowerCase() as Priority | undefined;
  let team: Team | null = null;
  if (/team the customer's VIP Service Agreement names/i.test(body)) team = facts.agreement?.team ?? 'vip_concierge';
  else team = (/route (?:the ticket )?to (?:the )?([a-z_]+)/i.exec(body)?.[1] as Team | undefined) ?? null;
  const code = (/resolve as ([a-z_]+)/i.exec(body)?.[1] as ResolutionCode | undefined) ?? null;
  const traceDays = /within (\d+) business days/i.exec(body);
  const vipGoodwill = /Apply a \$([\d,.]+) goodwill credit/i.exec(body);
  const premiumGoodwill = /Premium customers get a \$([\d,.]+) goodwill credit/i.exec(body);
  const goodwill = vipGoodwill ? amount(vipGoodwill[1]) : premiumGoodwill && facts.tier === 'premium' ? amount(premiumGoodwill[1]) : null;
  return {
    priority: priority ?? null,
    team,
    code,
    credit: code === 'replacement_dispatched' ? (facts.agreement?.credit ?? null) : null,
    traceDays: traceDays ? Number(traceDays[1]) : null,
    goodwill,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The reply

function reply(facts: CaseFacts, plan: Plan, courier: SearchHit | undefined, clock: Clock): string {
  const lines = [`Dear ${facts.firstName},`];
  if (plan.code === 'replacement_dispatched') {
    const trouble = facts.lost ? 'has been reported lost by the carrier' : 'has stalled with the carrier';
    lines.push(`I'm very sorry that order ${facts.order} ${trouble}.`);
    const delivery = courier ? overnightDelivery(courier.body, clock) : null;
    const when = delivery ? ` It will be delivered on ${delivery.date} before ${delivery.by}.` : '';
    lines.push(`Under your VIP Service Agreement we are sending a full replacement by overnight priority courier at no charge.${when}`);
    if (plan.credit !== null) lines.push(`We have also applied a shipping credit of ${usdUngrouped(plan.credit)} to your account.`);
  } else {
    lines.push(`I'm sorry that order ${facts.order} is running late.`);
    const within = plan.traceDays !== null ? `, and you will have the trace result within ${plan.traceDays} business days` : '';
    lines.push(`We have opened a carrier trace on it${within}.`);
    if (plan.goodwill !== null) lines.push(`We have also applied a goodwill credit of ${usdUngrouped(plan.goodwill)} to your account.`);
  }
  lines.push('Kind regards, Northwind Supply');
  return lines.join(' ');
}

/**
 * The courier article's rule: booked on a business day before the cut-off, delivered the next business day before
 * the deadline; booked later, or at a weekend, collected the next business day and delivered the one after.
 */
function overnightDelivery(article: string, clock: Clock): { date: string; by: string } | null {
  const m = /booked before (\d{2}):(\d{2}) UK time, delivered the next business day before (\d{2}:\d{2})/i.exec(article);
  if (!m) return null;
  const cutoff = Number(m[1]) * 60 + Number(m[2]);
  const business = (day: number) => ![0, 6].includes(new Date(day).getUTCDay());
  const next = (day: number) => {
    let d = day + DAY_MS;
    while (!business(d)) d += DAY_MS;
    return d;
  };
  const collected = business(clock.day) && clock.minutes < cutoff ? clock.day : next(clock.day);
  const delivered = new Date(next(collected));
  const weekday = WEEKDAYS[delivered.getUTCDay()];
  const month = MONTHS[delivered.getUTCMonth()];
  // "Monday 24 May before 12:00" is read by the claim grader (version 2) as the modal "may", a hedge; the
  // month-first form is read as the date it is.
  const date = month === 'May' ? `${weekday}, May ${delivered.getUTCDate()},` : `${weekday} ${delivered.getUTCDate()} ${month}`;
  return { date, by: m[3] };
}


/*
 * Generator version 4: six kinds of case. The triage article names the policy for each and states this instance's
 * figures (stall threshold, trace time, priority rule); the courier article gives the cut-off and the couriers'
 * times; the contract notes give the needed-by date, the order's value, the payment and any VIP agreement; the
 * carrier events give the hours since the last scan. The kind's article gives the rest.
 */

const CASE_TITLE = /^(Missing orders needed for an event: which policy applies|Replacing a lost order by .*|Carrier traces for late orders|Orders that cannot arrive in time: .*)$/;
const TRIAGE_TITLE = 'Missing orders needed for an event: which policy applies';
const TRIAGE_QUERY = 'missing order needed for an event which policy applies';
const COURIER_TITLE = 'Courier options and delivery times';

/** The kinds in the order the triage article names their policies. */
const CASE_KINDS_4 = ['refund_too_late', 'credit_too_late', 'carrier_trace', 'ground_replacement', 'express_replacement', 'overnight_replacement'] as const;
type Kind4 = (typeof CASE_KINDS_4)[number];

const KIND_OF_TITLE: [RegExp, Kind4][] = [
  [/by standard ground$/i, 'ground_replacement'],
  [/by express courier$/i, 'express_replacement'],
  [/by overnight priority courier$/i, 'overnight_replacement'],
  [/^Carrier traces for late orders$/i, 'carrier_trace'],
  [/cannot arrive in time: card payments$/i, 'refund_too_late'],
  [/cannot arrive in time: orders on account$/i, 'credit_too_late'],
];

function kindOfTitle(title: string): Kind4 | undefined {
  return KIND_OF_TITLE.find(([re]) => re.test(title))?.[1];
}

interface Reading4 {
  kind: Kind4;
  firstName: string;
  order: string;
  agreement: Agreement | null;
  neededBy: number | null;
  valueCents: number | null;
  card: string | null;
  hoursStalled: number;
  /** The delivery days the courier article gives from today's booking. */
  dates: { overnight: number; express: number; ground: number } | null;
  deliverBy: string;
  daysToNeeded: number | null;
}

function isBusiness(day: number): boolean {
  return ![0, 6].includes(new Date(day).getUTCDay());
}

function nextBusiness(day: number): number {
  let d = day + DAY_MS;
  while (!isBusiness(d)) d += DAY_MS;
  return d;
}

function addBusiness(day: number, n: number): number {
  let d = day;
  for (let i = 0; i < n; i++) d = nextBusiness(d);
  return d;
}

function isoDay(text: string): number {
  return Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
}

/** The latest "Thursday 3 December" the text names (the customer's event), in the clock's year or the next. */
function latestDateIn(text: string, clock: Clock): number | null {
  const days = [...text.matchAll(/\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) (\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December)\b/g)].map((m) => {
    const year = new Date(clock.day).getUTCFullYear();
    const at = Date.UTC(year, MONTHS.indexOf(m[2]), Number(m[1]));
    return at < clock.day - 180 * DAY_MS ? Date.UTC(year + 1, MONTHS.indexOf(m[2]), Number(m[1])) : at;
  });
  return days.length ? Math.max(...days) : null;
}

/** The VIP agreement in the notes: team, threshold and credit, with an amendment's figure in place of the one it replaces. */
function readAgreement4(notes: string[]): Agreement | null {
  if (!notes.some((n) => /Service Agreement/i.test(n))) return null;
  const agreement: Agreement = { team: null, credit: null, thresholdHours: null };
  for (const note of notes) {
    const owner = /owned by the (VIP Concierge|Logistics) team/i.exec(note);
    if (owner) agreement.team = /concierge/i.test(owner[1]) ? 'vip_concierge' : 'logistics';
    const clause = /more than (\d+) hours is treated as lost.*shipping credit of \$([\d,]+(?:\.\d{2})?)/i.exec(note);
    if (clause) {
      agreement.thresholdHours ??= Number(clause[1]);
      agreement.credit ??= amount(clause[2]);
    }
  }
  for (const note of notes) {
    const credit = /shipping credit in .* is now \$([\d,]+(?:\.\d{2})?)/i.exec(note);
    if (credit) agreement.credit = amount(credit[1]);
    const threshold = /threshold in .* is now (\d+) hours/i.exec(note);
    if (threshold) agreement.thresholdHours = Number(threshold[1]);
  }
  return agreement;
}

function readCase4(ticket: ActiveTicketView, triage: string, courier: string | undefined, clock: Clock, options: SolverOptions): Reading4 {
  const notes = options.ignoreContractNotes ? [] : ticket.contract_notes;
  const all = notes.join(' ');
  const agreement = ticket.customer.tier === 'vip' ? readAgreement4(notes) : null;
  const needed = /needed on site by (\d{4}-\d{2}-\d{2})/.exec(all);
  // Without the notes, the day before the event the customer names.
  const event = latestDateIn(ticket.body, clock);
  const neededBy = needed ? isoDay(needed[1]) : event !== null ? event - DAY_MS : null;
  const value = /Order SO-\d+: [^$]*?, \$([\d,]+)\.(\d{2}), for the/.exec(all);
  const card = /Payment: by card \((\w+) ending (\d{4})\)/.exec(all);
  const account = /invoiced to the account/i.test(all);
  const scans = ticket.recent_events.filter((e) => e.kind === 'carrier_scan' || e.kind === 'shipment').map((e) => Date.parse(e.at));
  const lastScan = scans.length ? Math.max(...scans) : clock.instant;
  const hoursStalled = Math.floor((clock.instant - lastScan) / HOUR_MS);
  const figure = (re: RegExp, text = triage) => Number(re.exec(text)?.[1] ?? NaN);
  const stall = agreement?.thresholdHours ?? figure(/more than (\d+) hours is treated as lost/);
  const traceDays = figure(/within (\d+) business days of today/);
  const cut = courier ? /bookings made before (\d{2}):(\d{2}) UK time/.exec(courier) : null;
  const groundMax = courier ? figure(/Standard ground: delivered \d+ to (\d+) business days/, courier) : NaN;
  const expressDays = courier ? figure(/Express: delivered (\d+) business days/, courier) : NaN;
  const deliverBy = (courier ? /Overnight priority courier: delivered the next business day after collection, before (\d{2}:\d{2})/.exec(courier)?.[1] : undefined) ?? '12:00';
  let dates: Reading4['dates'] = null;
  if (cut) {
    const cutoff = Number(cut[1]) * 60 + Number(cut[2]);
    const collection = isBusiness(clock.day) && clock.minutes < cutoff ? clock.day : nextBusiness(clock.day);
    dates = { overnight: nextBusiness(collection), express: addBusiness(collection, expressDays), ground: addBusiness(collection, groundMax) };
  }
  let kind: Kind4 = 'carrier_trace';
  if (neededBy !== null && dates) {
    const lost = hoursStalled > stall;
    if (dates.overnight > neededBy) kind = card || !account ? 'refund_too_late' : 'credit_too_late';
    else if (!lost && addBusiness(clock.day, traceDays) <= neededBy) kind = 'carrier_trace';
    else kind = dates.ground <= neededBy ? 'ground_replacement' : dates.express <= neededBy ? 'express_replacement' : 'overnight_replacement';
  }
  let daysToNeeded: number | null = null;
  if (neededBy !== null) {
    daysToNeeded = 0;
    for (let day = clock.day + DAY_MS; day <= neededBy; day += DAY_MS) if (isBusiness(day)) daysToNeeded++;
  }
  return {
    kind: CASE_KINDS_4.find((k) => k === options.readCaseAs) ?? kind,
    firstName: ticket.customer.name.split(/\s+/)[0],
    order: ORDER_ID.exec(ticket.body)?.[0] ?? '',
    agreement,
    neededBy,
    valueCents: value ? Number(value[1].replace(/,/g, '')) * 100 + Number(value[2]) : null,
    card: card ? `${card[1]} ending ${card[2]}` : null,
    hoursStalled,
    dates,
    deliverBy,
    daysToNeeded,
  };
}

/** The titles the triage article quotes, in its order, so the kind's own article is searched for by its name. */
function titleOf(kind: Kind4, triage: string): string | null {
  const quoted = [...triage.matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((t) => t !== COURIER_TITLE);
  return quoted[CASE_KINDS_4.indexOf(kind)] ?? null;
}

function solveCase(env: SolverEnvironment, ticket: ActiveTicketView, first: SearchHit[], clock: Clock, options: SolverOptions): void {
  // The ablation takes the first hit's policy for the case, whatever it applies to (the triage article sets nothing).
  if (options.firstSearchHit) {
    const followed = kindOfTitle(first[0]?.title ?? '');
    if (!followed) return;
    options = { ...options, firstSearchHit: false, readCaseAs: followed };
  }
  const triage = first.find((hit) => hit.title === TRIAGE_TITLE) ?? search(env, TRIAGE_QUERY).find((hit) => hit.title === TRIAGE_TITLE);
  if (!triage) return;
  const courier = search(env, COURIER_TITLE).find((hit) => hit.title === COURIER_TITLE);
  const r = readCase4(ticket, triage.body, courier?.body, clock, options);
  const title = titleOf(r.kind, triage.body);
  if (!title || env.done) return;
  const article = search(env, title).find((hit) => hit.title === title);
  if (!article || env.done) return;
  const body = article.body;
  const tier = ticket.customer.tier;

  // The article's own priority, else the triage article's rule on the business days to the needed-by date.
  const own = /Set the priority to (low|normal|high|urgent)/.exec(body)?.[1] as Priority | undefined;
  const rule = /(\d+) or fewer, urgent; (\d+) or fewer, high; more, normal/.exec(triage.body);
  const priority: Priority | null =
    own ?? (rule && r.daysToNeeded !== null ? (r.daysToNeeded <= Number(rule[1]) ? 'urgent' : r.daysToNeeded <= Number(rule[2]) ? 'high' : 'normal') : null);
  const billing = /Route the ticket to the (\w+) team, VIP accounts included/.exec(body)?.[1];
  const standardOwn = /standard accounts stay with [^(]*\(route to the (\w+) team\)/.exec(body)?.[1];
  const team =
    billing ??
    (r.agreement?.team && /team the customer's VIP Service Agreement names/.test(body)
      ? r.agreement.team
      : tier === 'standard' && standardOwn
        ? standardOwn
        : /premium accounts go to the (\w+) team/.exec(body)?.[1]);
  const code = /resolve as (\w+)/.exec(body)?.[1] as ResolutionCode | undefined;
  const tierCredit = new RegExp(`\\$([\\d,]+\\.\\d{2}) for ${tier} accounts`).exec(body)?.[1];
  const credit = r.agreement?.credit ?? (tierCredit ? amount(tierCredit) : null);
  const amountOfCase =
    code === 'replacement_dispatched' ? credit : code === 'refund_issued' || code === 'credit_issued' ? (r.valueCents === null ? null : r.valueCents / 100) : null;

  const tell = /What to tell the customer:(.*?)(Exceptions:|$)/is.exec(body)?.[1] ?? '';
  const span = /(\d+)-(\d+) business days/.exec(tell);
  const single = /(\d+) business days/.exec(tell);
  const window = span ? `${span[1]}-${span[2]} business days` : single ? `${single[1]} business days` : '';
  const reply = caseReply(ticket, r, credit, window);

  if (priority) step(env, { type: 'set_priority', priority });
  if (team) step(env, { type: 'route_ticket', team: team as Team });
  step(env, { type: 'send_reply', message: reply });
  if (!code || ((code === 'refund_issued' || code === 'credit_issued') && amountOfCase === null)) return;
  step(env, { type: 'resolve_ticket', resolution: code, ...(amountOfCase !== null && amountOfCase !== undefined && code !== 'carrier_trace_opened' ? { amount: amountOfCase } : {}) });
}

/** "Tuesday 8 December"; in May the month-first form ("Monday, May 24,"), which no reader takes for the modal "may". */
function dayText(day: number): string {
  const d = new Date(day);
  const weekday = WEEKDAYS[d.getUTCDay()];
  const month = MONTHS[d.getUTCMonth()];
  return month === 'May' ? `${weekday}, May ${d.getUTCDate()},` : `${weekday} ${d.getUTCDate()} ${month}`;
}

/** Varied wording: the ticket id picks one of three styles, so replies differ from instance to instance. */
function caseReply(ticket: ActiveTicketView, r: Reading4, credit: number | null, window: string): string {
  const style = Number(ticket.ticket_id.replace(/\D/g, '')) % 3;
  const greeting = [`Dear ${r.firstName},`, `Hello ${r.firstName},`, `Hi ${r.firstName},`][style];
  const sign = ['Kind regards,\nNorthwind Supply', 'Best wishes,\nThe Northwind Supply delivery desk', 'Thanks for your patience,\nNorthwind Supply'][style];
  const lines: string[] = [];
  const creditText = credit === null ? '' : usdUngrouped(credit);
  const value = r.valueCents === null ? '' : usd(r.valueCents / 100);
  const card = r.card ? `card (${r.card})` : 'card';
  switch (r.kind) {
    case 'ground_replacement':
    case 'express_replacement':
    case 'overnight_replacement': {
      const courier = { ground_replacement: 'standard ground', express_replacement: 'express courier', overnight_replacement: 'overnight priority courier' }[r.kind];
      const day = r.dates ? { ground_replacement: r.dates.ground, express_replacement: r.dates.express, overnight_replacement: r.dates.overnight }[r.kind] : null;
      const when =
        day === null ? '' : r.kind === 'ground_replacement' ? `by ${dayText(day)} at the latest` : r.kind === 'overnight_replacement' ? `on ${dayText(day)} before ${r.deliverBy}` : `on ${dayText(day)}`;
      lines.push(
        [
          `I'm sorry that order ${r.order} has not reached you. We are sending a full replacement by ${courier} at no charge${when ? `, and it will be delivered ${when}` : ''}.`,
          `Thanks for chasing order ${r.order}. A replacement is being dispatched to you by ${courier}, free of charge${when ? `, and it will be delivered ${when}` : ''}.`,
          `Sorry about the trouble with order ${r.order}. We've dispatched a replacement by ${courier} at no cost to you${when ? `; it will be delivered ${when}` : ''}.`,
        ][style],
      );
      if (creditText)
        lines.push(
          [
            `We have also applied a shipping credit of ${creditText} to your account.`,
            `We've added a shipping credit of ${creditText} to your account as well.`,
            `A shipping credit of ${creditText} has been applied to your account too.`,
          ][style],
        );
      break;
    }
    case 'carrier_trace':
      lines.push(
        [
          `I'm sorry that order ${r.order} is running late. We have opened a carrier trace on it, and you will have the trace result within ${window}.`,
          `Thanks for chasing order ${r.order}. We've started a trace with the carrier, and the result of the trace will follow within ${window}.`,
          `Sorry about the delay with order ${r.order}. A carrier trace has been opened on the parcel, and we'll have the trace outcome for you within ${window}.`,
        ][style],
      );
      break;
    case 'refund_too_late':
      lines.push(
        [
          `I'm very sorry: no courier can get the goods to you before you need them on site, so we have cancelled order ${r.order} and refunded the full ${value} to your ${card}.`,
          `Thanks for your message about order ${r.order}. There is no way to get the goods to you before you need them, so we've cancelled the order and refunded ${value} to your ${card}.`,
          `Sorry about order ${r.order}. As it can't reach you before you need it, we've cancelled it and issued a refund of ${value} to your ${card}.`,
        ][style],
        [`Card refunds settle within ${window}.`, `The refund should settle on your card within ${window}.`, `Please allow ${window} for the refund to settle.`][style],
      );
      break;
    case 'credit_too_late':
      lines.push(
        [
          `I'm very sorry: no courier can get the goods to you before you need them on site, so we have cancelled order ${r.order} and credited the full ${value} to your account.`,
          `Thanks for your message about order ${r.order}. There is no way to get the goods to you before you need them, so we've cancelled the order and added an account credit of ${value} to your account.`,
          `Sorry about order ${r.order}. As it can't reach you before you need it, we've cancelled it and credited ${value} to your account balance.`,
        ][style],
        [
          `The credit shows on your account within ${window}, against your next invoice.`,
          `You'll see the credit on your account within ${window}; it comes off your next invoice.`,
          `The credit will show on your account within ${window}.`,
        ][style],
      );
      break;
  }
  return [greeting, '', ...lines, '', sign].join('\n');
}

/**
 * The reference solver, and what the family's `hard` text claims of its ablations (means over seeds 0-199) for the
 * version drawing new episodes (g4): ignoring contract notes scores 0.71 there (0.6 was version 3's bound): in
 * version 4 the customer's event date (the body) gives the needed-by date, and the carrier events and the knowledge
 * base's figures decide most kinds; what is lost is every VIP agreement (threshold, team, credit), the order's value
 * and the payment (so no refund or credit is resolved). Following the first search hit scores 0.12 (version 3's
 * bound: 0.6). The case kinds are version 4's (the shortcut agents play them); versions 1-3's three kinds are worked
 * by the code above, keyed by their articles.
 */
export const solver: FamilySolver = { solve: solveLogisticsMissingOrderVip, ablationMeanAtMost: { ignoreContractNotes: 0.75, firstSearchHit: 0.2 }, caseKinds: CASE_KINDS_4 };

import type { Priority, Team, Draws } from '../kit';
import { DAY_MS, HOUR_MS, MINUTE_MS, MONTHS } from '../shared';
import {
  addBusinessDays,
  clockInstant,
  isBusinessDay,
  overnightDelivery,
  previousBusinessDay,
  nextBusinessDay,
  dayOf,
  localDay,
  type UkClock,
} from './calendar';

/*
 * The facts of one instance of the logistics family, drawn from the seed. Nothing here decides the answer: the
 * policy logic (logistics-missing-order-vip-key.ts) derives it from these facts, as an agent must from the ticket,
 * the contract notes, the carrier events and the articles.
 */

export type Tier = 'vip' | 'premium' | 'standard';

/**
 * Which situation is drawn. The VIP event-critical incident beyond its agreement's threshold (or lost) is half of
 * the instances; the other half are the cases a careless agent confuses with it.
 */
export type Situation = 'vip_event_incident' | 'vip_not_flagged' | 'vip_under_threshold' | 'premium' | 'standard';

/** The knowledge base's figures, which vary between instances as a company's runbook does between revisions. */
export interface PolicyTerms {
  /** Business days a carrier trace takes to answer under the standard article. */
  traceDaysStandard: number;
  /** Business days a carrier trace takes to answer for VIP accounts. */
  traceDaysVip: number;
  goodwillVip: number;
  goodwillPremium: number;
  ground: [number, number];
  expressDays: number;
  /** The overnight courier's booking cut-off and delivery deadline, minutes after midnight UK time. */
  cutoff: number;
  deliverBy: number;
}

export interface Amendment {
  kind: 'credit' | 'threshold';
  /** The value the original clause states, which the amendment replaces. */
  previous: number;
  label: string;
  effective: number;
}

export interface Agreement {
  id: string;
  team: Extract<Team, 'vip_concierge' | 'logistics'>;
  teamClause: string;
  creditClause: string;
  credit: number;
  thresholdHours: number;
  amendment: Amendment | null;
  /** An unrelated clause with its own amount, as real agreements have. */
  noiseClause: { clause: string; kind: 'minimum_spend' | 'payment_terms' | 'storage'; amount: number } | null;
}

export interface Person {
  first: string;
  last: string;
  name: string;
}

export interface Item {
  /** "lanyard and badge kits" */
  plural: string;
  /** "kits": what "them" stands for in the customer's words. */
  unit: string;
}

export interface EventKind {
  /** "conference" */
  noun: string;
  /** "opens", as in "the conference opens on 3 December" */
  verb: string;
  /** "we need the kits set up the day before" (with {unit}) */
  need: string;
}

export interface Scan {
  at: number;
  detail: string;
}

export interface Shipment {
  order: string;
  item: Item;
  quantity: number;
  carrier: string;
  tracking: string;
  collectedAt: number;
  scans: Scan[];
  lastScanAt: number;
  lastHub: string;
  /** Whole hours since the last carrier scan, at the clock. */
  hoursStalled: number;
  lost: { at: number; claim: string } | null;
  /** The carrier's own "no scans for N hours" line, when the carrier API reported one. */
  apiNote: { at: number; hours: number } | null;
  dueDay: number;
}

export type SameCustomerIssue = 'invoice_po' | 'vat_receipt' | 'authorised_contact';
export type ResolvedKind = 'colleague_asked_date' | 'other_vip_incident';
export type ExtraKind = 'where_is_order' | 'damaged_item';

export interface Distractors {
  sameCustomer: { issue: SameCustomerIssue; ticket: string; invoice: string; po: [string, string]; month: string; contact: Person };
  resolved: {
    kind: ResolvedKind;
    ticket: string;
    person: Person;
    /** For another VIP account's incident: its own account, order, agreement and credit. */
    account: string;
    company: string;
    order: string;
    agreement: string;
    credit: number;
    team: Extract<Team, 'vip_concierge' | 'logistics'>;
    event: EventKind;
    item: Item;
  };
  nearDuplicate: { ticket: string; person: Person; tier: Exclude<Tier, 'vip'>; account: string; order: string; item: Item; quantity: number; hoursStalled: number; hub: string; subject: number };
  extras: { kind: ExtraKind; ticket: string; person: Person; tier: Exclude<Tier, 'vip'>; account: string; order: string; item: Item }[];
}

export interface Facts {
  situation: Situation;
  clock: UkClock;
  terms: PolicyTerms;
  customer: Person;
  tier: Tier;
  account: string;
  company: string;
  agreement: Agreement | null;
  /** Whether the order was flagged event-critical at checkout (a contract note says so). */
  flagged: boolean;
  /** Whether a note says explicitly that the order was not flagged (otherwise nothing is said). */
  notFlaggedNote: boolean;
  shipment: Shipment;
  event: { kind: EventKind; day: number };
  target: { ticket: string; priority: Priority; team: Team | null; template: number };
  distractors: Distractors;
  articles: ArticleIds;
}

/** Article ids vary too, so a memorised id tells nothing. */
export interface ArticleIds {
  standard: string;
  vipEvent: string;
  vipDelayed: string;
  courier: string;
  whereIsOrder: string;
  damaged: string;
  sameCustomer: string;
  priorities: string;
  routing: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Pools. Kept to names and things an events-merchandise supplier in the UK would see.

const FIRST_NAMES = [
  'Isabelle', 'Noah', 'Greta', 'Tom', 'Priya', 'Marcus', 'Aoife', 'Daniel', 'Chloe', 'Tariq', 'Hannah', 'Owen', 'Leila',
  'Samuel', 'Freya', 'Kwame', 'Rosa', 'Ewan', 'Mei', 'Jonah', 'Alys', 'Rahul', 'Sofia', 'Callum', 'Nadia', 'Felix',
  'Imogen', 'Ravi', 'Martha', 'Luca', 'Zara', 'Hugo', 'Eleni', 'Patrick', 'Yasmin', 'Gareth', 'Ines', 'Declan',
  'Amara', 'Bethan',
];
const LAST_NAMES = [
  'Moreau', 'Pearce', 'Lindqvist', 'Hearn', 'Okafor', 'Whitfield', 'Brennan', 'Castellano', 'Nakamura', 'Hughes',
  'Delacroix', 'Ferreira', 'Kowalczyk', 'Ashworth', 'Mensah', 'Rowlands', 'Sandoval', 'Gallagher', 'Iyer', 'Thornton',
  'Vasquez', 'Blackwood', 'Haddad', 'Lindgren', 'McAllister', 'Osei', 'Pemberton', 'Quinlan', 'Reyes', 'Sinclair',
  'Takahashi', 'Underwood', 'Varga', 'Wexford', 'Yilmaz', 'Zielinski', 'Abbott', 'Carrow', 'Dunmore', 'Ellery',
];
const COMPANY_SUFFIXES = ['Events', 'Live', 'Productions', 'Creative', 'Hospitality', 'Experiences', 'Communications', 'Group'];

const ITEMS: Item[] = [
  { plural: 'lanyard and badge kits', unit: 'kits' },
  { plural: 'branded tote bags', unit: 'bags' },
  { plural: 'pop-up banner stands', unit: 'stands' },
  { plural: 'delegate welcome packs', unit: 'packs' },
  { plural: 'printed table covers', unit: 'covers' },
  { plural: 'speaker gift boxes', unit: 'boxes' },
  { plural: 'fabric backdrop kits', unit: 'kits' },
  { plural: 'branded hoodies', unit: 'hoodies' },
  { plural: 'name badge sets', unit: 'sets' },
  { plural: 'staff uniform packs', unit: 'packs' },
];

const EVENTS: EventKind[] = [
  { noun: 'conference', verb: 'opens', need: 'we need the {unit} set up the day before' },
  { noun: 'product launch', verb: 'is', need: 'the {unit} have to be on site the day before' },
  { noun: 'trade show', verb: 'starts', need: 'our stand build needs the {unit} a day ahead' },
  { noun: 'awards evening', verb: 'is', need: 'we dress the venue the day before' },
  { noun: 'summit', verb: 'opens', need: 'registration opens first thing, so we need the {unit} before then' },
  { noun: 'exhibition', verb: 'opens', need: 'we set up the stand the afternoon before' },
  { noun: 'charity gala', verb: 'is', need: 'our volunteers pack everything the day before' },
  { noun: 'roadshow', verb: 'starts', need: 'the van leaves our office the morning before' },
]

const CARRIERS = [
  { name: 'Swiftway Freight', prefix: 'SWF' },
  { name: 'Parcelink', prefix: 'PLK' },
  { name: 'Northline Couriers', prefix: 'NLC' },
  { name: 'Brisk Parcel', prefix: 'BRP' },
  { name: 'Meridian Logistics', prefix: 'MRL' },
];
const HUBS = ['Leicester', 'Daventry', 'Milton Keynes', 'Coventry', 'Crewe', 'Warrington', 'Doncaster', 'Swindon', 'Peterborough', 'Northampton', 'Wakefield', 'Bristol'];

/** Agreement credits and thresholds: the "e.g. $75-$300, 36/48/72 hours" of the service agreements on file. */
export const CREDITS = [75, 90, 100, 120, 125, 150, 175, 200, 225, 250, 300];
export const THRESHOLDS = [24, 36, 48, 72];
/** An amended threshold may have been any of these before. */
export const PREVIOUS_THRESHOLDS = [24, 36, 48, 72, 96];

const PRIORITY_PRESETS: Priority[] = ['low', 'normal', 'normal', 'high'];
const TEAM_PRESETS: (Team | null)[] = [null, null, 'logistics', 'general_support', 'vip_concierge'];

/**
 * Clock days: September to June, leaving out the Christmas and New Year shutdown (19 December to 3 January), when
 * no courier runs and the business-day rule of the courier article would not hold.
 */
const CLOCK_DAYS: number[] = (() => {
  const out: number[] = [];
  for (let day = dayOf(2026, 9, 1); day <= dayOf(2027, 6, 30); day += DAY_MS) {
    const d = new Date(day);
    const month = d.getUTCMonth() + 1;
    const date = d.getUTCDate();
    if ((month === 12 && date >= 19) || (month === 1 && date <= 3)) continue;
    out.push(day);
  }
  return out;
})();

// ---------------------------------------------------------------------------------------------------------------
// Drawing. The order of the draws is fixed for generator version 1: every draw shifts the ones after it.

const WARM_UP_DRAWS = 8;

export function drawFacts(d: Draws): Facts {
  // The generator's first outputs for seeds that differ in their low bits are close (seeds 2k and 2k+1 drew the
  // same situation); a few discarded draws decorrelate them before anything is decided.
  for (let i = 0; i < WARM_UP_DRAWS; i++) d.int(0, 1_000_000);
  const situation = drawSituation(d);
  const clock = drawClock(d);
  const terms = drawTerms(d);
  const firsts = d.sample(FIRST_NAMES, 8);
  const lasts = d.sample(LAST_NAMES, 8);
  const people: Person[] = firsts.map((first, i) => ({ first, last: lasts[i], name: `${first} ${lasts[i]}` }));
  const customer = people[0];
  const tier: Tier = situation === 'premium' ? 'premium' : situation === 'standard' ? 'standard' : 'vip';
  const company = `${customer.last} ${d.pick(COMPANY_SUFFIXES)}`;
  const ticketIds = drawTicketIds(d);
  const orders = drawOrderIds(d);
  const accounts = drawAccounts(d);

  const agreementTeam = d.pick(['vip_concierge', 'logistics'] as const);
  const thresholdHours = d.pick(THRESHOLDS);
  const lost = situation === 'vip_event_incident' && d.chance(1, 4);
  const hoursStalled = drawHoursStalled(d, situation, thresholdHours, lost);
  const agreement = tier === 'vip' ? drawAgreement(d, agreementTeam, thresholdHours, situation, hoursStalled, lost, clock) : null;
  const flagged = situation === 'vip_event_incident' || situation === 'vip_under_threshold' || (tier !== 'vip' && d.chance(1, 3));
  const notFlaggedNote = !flagged && d.chance(1, 2);

  const shipment = drawShipment(d, clock, terms, orders[0], hoursStalled, lost);
  const event = drawEventDay(d, clock, terms);
  const target = {
    ticket: ticketIds[0],
    priority: d.pick(PRIORITY_PRESETS),
    team: d.pick(TEAM_PRESETS),
    template: d.int(0, 2),
  };
  const distractors = drawDistractors(d, { clock, people, ticketIds, orders, accounts });
  const articles = drawArticleIds(d, distractors.sameCustomer.issue);
  return { situation, clock, terms, customer, tier, account: accounts[0], company, agreement, flagged, notFlaggedNote, shipment, event, target, distractors, articles };
}

function drawArticleIds(d: Draws, issue: SameCustomerIssue): ArticleIds {
  const log = d.sample(Array.from({ length: 60 }, (_, i) => 400 + i), 6).map((n) => `KB-LOG-${n}`);
  const [priorities, routing] = d.sample([1, 2, 3, 4, 5, 6, 7, 8, 9], 2).map((n) => `KB-GEN-00${n}`);
  const sameCustomer = issue === 'authorised_contact' ? `KB-ACC-${d.int(200, 299)}` : `KB-BIL-${d.int(100, 199)}`;
  return { standard: log[0], vipEvent: log[1], vipDelayed: log[2], courier: log[3], whereIsOrder: log[4], damaged: log[5], sameCustomer, priorities, routing };
}

function drawSituation(d: Draws): Situation {
  const roll = d.int(1, 20);
  if (roll <= 10) return 'vip_event_incident';
  if (roll <= 13) return 'vip_not_flagged';
  if (roll <= 16) return 'vip_under_threshold';
  return roll <= 18 ? 'premium' : 'standard';
}

/** A working moment, 08:00 to 18:45 UK time, about a third of them after the 15:00 courier cut-off. */
function drawClock(d: Draws): UkClock {
  const day = d.pick(CLOCK_DAYS);
  const hour = d.int(8, 18);
  const minutes = hour * 60 + d.pick([0, 5, 10, 15, 20, 30, 40, 45, 50]);
  return { day, minutes };
}

function drawTerms(d: Draws): PolicyTerms {
  const [traceDaysStandard, traceDaysVip] = d.sample([2, 3, 4, 5, 7], 2);
  return {
    traceDaysStandard,
    traceDaysVip,
    goodwillVip: d.pick([30, 40, 50, 60, 70]),
    goodwillPremium: d.pick([10, 15, 20, 25]),
    ground: d.pick([[3, 5], [2, 4], [4, 6]] as [number, number][]),
    expressDays: d.pick([2, 3]),
    cutoff: 15 * 60,
    deliverBy: 12 * 60,
  };
}

/** Ticket numbers of one support queue: close together, never the same. */
function drawTicketIds(d: Draws): string[] {
  const base = d.int(1200, 9800);
  return d.sample(Array.from({ length: 60 }, (_, i) => i), 8).map((offset) => `T-${base + offset}`);
}

function drawOrderIds(d: Draws): string[] {
  const base = d.int(20000, 98000);
  return d.sample(Array.from({ length: 90 }, (_, i) => i), 6).map((offset) => `SO-${base + offset}`);
}

function drawAccounts(d: Draws): string[] {
  return d.sample(Array.from({ length: 900 }, (_, i) => i), 6).map((i) => `ACC-${String(d.int(1, 99) * 1000 + i).padStart(5, '0')}`);
}

/**
 * Hours since the last scan, kept at least 3 hours from the agreement's threshold so a reader who converts the
 * UK clock to UTC (or forgets the hour of summer time) still lands on the same side of it.
 */
function drawHoursStalled(d: Draws, situation: Situation, threshold: number, lost: boolean): number {
  if (situation === 'vip_event_incident') {
    if (!lost) return threshold + d.int(4, 90);
    const hours = d.int(Math.max(8, threshold - 20), threshold + 40);
    return Math.abs(hours - threshold) < 3 ? hours + 6 : hours;
  }
  if (situation === 'vip_under_threshold') return d.int(Math.max(8, threshold - 30), threshold - 3);
  const hours = d.int(10, 110);
  return Math.abs(hours - threshold) < 3 ? hours + 6 : hours;
}

function drawAgreement(
  d: Draws,
  team: Agreement['team'],
  thresholdHours: number,
  situation: Situation,
  hoursStalled: number,
  lost: boolean,
  clock: UkClock,
): Agreement {
  const id = `VSA-${d.int(1000, 9999)}`;
  const teamClause = `s.${d.int(1, 2)}.${d.int(1, 4)}`;
  const creditClause = `s.${d.int(4, 6)}.${d.int(1, 5)}`;
  const credit = d.pick(CREDITS);
  let amendment: Amendment | null = null;
  if (d.chance(1, 3)) {
    const label = `Amendment A${d.int(1, 4)}`;
    const effective = clock.day - d.int(20, 200) * DAY_MS;
    // A threshold amendment matters only if the old figure would decide the case the other way.
    const flips = PREVIOUS_THRESHOLDS.filter((t) => t !== thresholdHours && (t > hoursStalled) !== (thresholdHours > hoursStalled));
    const wantsThreshold = d.chance(1, 2) && !lost && situation !== 'vip_not_flagged' && flips.length > 0;
    amendment = wantsThreshold
      ? { kind: 'threshold', previous: d.pick(flips), label, effective }
      : { kind: 'credit', previous: d.pick(CREDITS.filter((c) => c !== credit)), label, effective };
  }
  const noiseClause = d.chance(1, 2)
    ? {
        clause: `s.${d.int(7, 9)}.${d.int(1, 3)}`,
        kind: d.pick(['minimum_spend', 'payment_terms', 'storage'] as const),
        amount: d.pick([500, 1000, 2500, 5000]),
      }
    : null;
  return { id, team, teamClause, creditClause, credit, thresholdHours, amendment, noiseClause };
}

/**
 * The shipment, built backwards from the clock: the last scan is `hoursStalled` hours ago; the scans before it
 * go back to the collection, which was early enough that the ground estimate has passed (the order is late).
 */
export function drawShipment(d: Draws, clock: UkClock, terms: PolicyTerms, order: string, hoursStalled: number, lost: boolean): Shipment {
  const now = clockInstant(clock);
  const item = d.pick(ITEMS);
  const quantity = d.pick([12, 20, 24, 30, 40, 50, 60, 75, 80, 100, 120, 150, 200, 250]);
  const carrier = d.pick(CARRIERS);
  const tracking = `${carrier.prefix}${d.digits(9)}`;
  const hubs = d.sample(HUBS, 3);
  const lastScanAt = now - hoursStalled * HOUR_MS - d.int(1, 58) * MINUTE_MS;
  // Collected on a business day at least (ground maximum + 1) business days before today, late afternoon UTC.
  let collectionDay = clock.day;
  for (let i = 0; i <= terms.ground[1] + d.int(0, 1); i++) collectionDay = previousBusinessDay(collectionDay);
  let collectedAt = collectionDay + (d.int(14, 17) * 60 + d.int(0, 59)) * MINUTE_MS;
  if (lastScanAt - collectedAt < 12 * HOUR_MS) collectedAt = lastScanAt - d.int(12, 40) * HOUR_MS - d.int(0, 59) * MINUTE_MS;
  // Hub scans at irregular intervals between the collection and the last scan: one or two hubs a day or so apart.
  const spanHours = (lastScanAt - collectedAt) / HOUR_MS;
  const scanCount = Math.max(2, Math.min(6, Math.round(spanHours / 24) + d.int(0, 1)));
  const weights = Array.from({ length: scanCount }, () => d.int(4, 16));
  const total = weights.reduce((a, b) => a + b, 0);
  const labels = hubs.flatMap((hub) => [`Arrived at hub, ${hub}`, `Departed hub, ${hub}`]);
  const scans: Scan[] = [];
  let cumulative = 0;
  for (let i = 0; i < scanCount; i++) {
    cumulative += weights[i];
    const at = i === scanCount - 1 ? lastScanAt : collectedAt + Math.round(((lastScanAt - collectedAt) * cumulative) / total / MINUTE_MS) * MINUTE_MS;
    scans.push({ at, detail: labels[i] });
  }
  const lastHub = hubs[Math.floor((scanCount - 1) / 2)];
  const collectedDay = localDay(collectedAt);
  const dueDay = addBusinessDays(isBusinessDay(collectedDay) ? collectedDay : previousBusinessDay(collectedDay), terms.ground[1]);
  const lostAt = lost ? now - d.int(1, Math.max(1, Math.min(hoursStalled - 1, 30))) * HOUR_MS - d.int(0, 59) * MINUTE_MS : 0;
  const lostInfo = lost ? { at: Math.max(lostAt, lastScanAt + HOUR_MS), claim: `CLM-${d.digits(6)}` } : null;
  const apiAt = now - d.int(15, 110) * MINUTE_MS;
  const apiNote = !lost && d.chance(1, 2) ? { at: apiAt, hours: Math.floor((apiAt - lastScanAt) / HOUR_MS) } : null;
  return {
    order,
    item,
    quantity,
    carrier: carrier.name,
    tracking,
    collectedAt,
    scans,
    lastScanAt,
    lastHub,
    hoursStalled,
    lost: lostInfo,
    apiNote,
    dueDay,
  };
}

/**
 * The customer's event: after any delivery date an agent might promise (the overnight date and the dates a
 * careless reading gives), so naming it in a reply never reads as a promised delivery.
 */
function drawEventDay(d: Draws, clock: UkClock, terms: PolicyTerms): { kind: EventKind; day: number } {
  const kind = d.pick(EVENTS);
  const delivery = overnightDelivery(clock, terms.cutoff);
  const latestPromise = Math.max(nextBusinessDay(delivery), clock.day + DAY_MS);
  return { kind, day: latestPromise + d.int(1, 9) * DAY_MS };
}

interface DistractorInputs {
  clock: UkClock;
  people: Person[];
  ticketIds: string[];
  orders: string[];
  accounts: string[];
}

function drawDistractors(d: Draws, x: DistractorInputs): Distractors {
  const month = MONTHS[(new Date(x.clock.day).getUTCMonth() + 11) % 12];
  const sameCustomer = {
    issue: d.pick(['invoice_po', 'vat_receipt', 'authorised_contact'] as const),
    ticket: x.ticketIds[1],
    invoice: `INV-${d.digits(5)}`,
    po: [`PO-${d.digits(4)}`, `PO-${d.digits(4)}`] as [string, string],
    month,
    contact: x.people[6],
  };
  const resolvedKind = d.pick(['colleague_asked_date', 'other_vip_incident'] as const);
  const resolved = {
    kind: resolvedKind,
    ticket: x.ticketIds[2],
    person: x.people[resolvedKind === 'colleague_asked_date' ? 1 : 2],
    account: x.accounts[1],
    company: `${x.people[2].last} ${d.pick(COMPANY_SUFFIXES)}`,
    order: x.orders[1],
    agreement: `VSA-${d.int(1000, 9999)}`,
    credit: d.pick(CREDITS),
    team: d.pick(['vip_concierge', 'logistics'] as const),
    event: d.pick(EVENTS),
    item: d.pick(ITEMS),
  };
  const nearDuplicate = {
    ticket: x.ticketIds[3],
    person: x.people[3],
    tier: d.pick(['standard', 'premium'] as const),
    account: x.accounts[2],
    order: x.orders[2],
    item: d.pick(ITEMS),
    quantity: d.pick([6, 10, 15, 25, 40]),
    hoursStalled: d.int(20, 90),
    hub: d.pick(HUBS),
    subject: d.int(0, 2),
  };
  // Five or six tickets: the target, the three above, and one or both of these.
  const withWhere = d.chance(2, 3);
  const withDamaged = !withWhere || d.chance(1, 2);
  const extras: Distractors['extras'] = [];
  if (withWhere) extras.push({ kind: 'where_is_order', ticket: x.ticketIds[4], person: x.people[4], tier: d.pick(['standard', 'premium'] as const), account: x.accounts[3], order: x.orders[3], item: d.pick(ITEMS) });
  if (withDamaged) extras.push({ kind: 'damaged_item', ticket: x.ticketIds[5], person: x.people[5], tier: d.pick(['standard', 'premium'] as const), account: x.accounts[4], order: x.orders[4], item: d.pick(ITEMS) });
  return { sameCustomer, resolved, nearDuplicate, extras };
}

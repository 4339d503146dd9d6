import { type CustomerTier, type Priority, type Team, Draws } from '../kit';
import { ACCEPTED_CARD_BRANDS } from '../shared';
import { addDays, clockAt, daysBetween, isoDate, oneMonthBefore, timestamp, type IsoDate } from './calendar';

/**
 * Every fact of one billing duplicate-charge instance, drawn from the seed in a fixed order. The texts (tickets,
 * articles) and the answer key are computed from these facts and never draw anything themselves, so the order of
 * draws lives in this file alone.
 */

export const SALT = 0x0b111;

export type PlanType = 'annual' | 'monthly';
/** How the customer words the charge: neutral, or with a word that points a careless reader the wrong way. */
export type Wording = 'neutral' | 'renewal' | 'month';
export type SideIssue = 'pdf_export' | 'billing_contact' | 'tax_id';

export interface Person {
  first: string;
  last: string;
  name: string;
  account: string;
}

export interface Plan {
  type: PlanType;
  /** The product tier ("Team"); the plan's name adds the billing cycle ("Team Annual"). */
  tier: string;
  name: string;
  seats: number;
  /** What one seat costs per month; an annual seat costs ten months (the annual-versus-monthly article). */
  seatMonthlyCents: number;
  /** What one billing period costs. */
  priceCents: number;
}

export interface Card {
  brand: string;
  last4: string;
}

/** A billing-duplicate policy as the knowledge base states it for one plan type. */
export interface DuplicatePolicy {
  plan: PlanType;
  /** Refund the duplicate to the card, or credit it to the account. */
  remedy: 'card_refund' | 'account_credit';
  priority: Priority;
  team: Team;
  resolution: 'refund_issued' | 'credit_issued';
  /** Business days: when the refund settles on the card, or when the credit shows on the next invoice. */
  window: { min: number; max: number };
  /** Which of the article's wordings this instance uses (they rank differently for the same query). */
  variant: number;
}

export interface Policies {
  annual: DuplicatePolicy;
  monthly: DuplicatePolicy;
  /** The 14-day cancellation refund: a near-miss with its own settlement window. */
  cancellationDays: number;
  articleIds: ArticleIds;
}

export interface ArticleIds {
  annual: string;
  monthly: string;
  cancellation: string;
  addOn: string;
  cycles: string;
  billingContact: string;
  taxId: string;
  pdfExport: string;
  priorities: string;
  routing: string;
}

/** The target case: the customer, their plan and the charges the gateway retry doubled. */
export interface TargetCase {
  ticketId: string;
  customer: Person & { tier: CustomerTier; role: string; domain: string };
  plan: Plan;
  card: Card;
  renewal: IsoDate;
  originalInvoice: string;
  duplicateInvoice: string;
  /** Event times: the first charge, the gateway timeout, the retried (duplicate) charge, the renewal record. */
  originalAt: string;
  timeoutAt: string;
  duplicateAt: string;
  renewedAt: string;
  addOn: { invoice: string; date: IsoDate; at: string; seats: number; cents: number };
  /** An unrelated sign-in recorded after the charges, on some accounts. */
  signInAt: string | null;
  wording: Wording;
  subjectVariant: number;
  bodyVariant: number;
  moodVariant: number;
  statesAmount: boolean;
  datesAddOn: boolean;
  preset: { priority: Priority; team: Team | null };
}

export interface SideTicket {
  ticketId: string;
  issue: SideIssue;
  at: string;
  requestId: string;
  vatNumber: string;
  preset: Priority;
}

/** Another customer's duplicate charge, already resolved under their own plan's policy. */
export interface ResolvedDuplicate {
  ticketId: string;
  customer: Person & { tier: CustomerTier };
  plan: Plan;
  card: Card;
  renewal: IsoDate;
  originalInvoice: string;
  duplicateInvoice: string;
  originalAt: string;
  duplicateAt: string;
  remedyAt: string;
  agent: string;
}

export interface Cancellation {
  ticketId: string;
  customer: Person & { tier: CustomerTier };
  plan: Plan;
  card: Card;
  invoice: string;
  paidOn: IsoDate;
  paidAt: string;
  cancelledOn: IsoDate;
  cancelledAt: string;
}

export interface CycleQuestion {
  ticketId: string;
  customer: Person & { tier: CustomerTier };
  plan: Plan;
  card: Card;
  invoice: string;
  paidAt: string;
  targetSeats: number;
}

/** A customer puzzled by a small pro-rated charge: the legitimate kind of extra charge, on its own. */
export interface AddOnQuestion {
  ticketId: string;
  customer: Person & { tier: CustomerTier };
  plan: Plan;
  card: Card;
  invoice: string;
  date: IsoDate;
  at: string;
  seats: number;
  cents: number;
}

export interface Facts {
  clock: string;
  clockDate: IsoDate;
  namesCustomer: boolean;
  policies: Policies;
  target: TargetCase;
  side: SideTicket;
  resolved: ResolvedDuplicate;
  cancellation: Cancellation;
  question: CycleQuestion;
  addOnQuestion: AddOnQuestion | null;
}

const FIRST_NAMES = [
  'Dana', 'Marcus', 'Priya', 'Owen', 'Isabelle', 'Helena', 'Tomasz', 'Aisha', 'Kenji', 'Lucia', 'Rafael', 'Ingrid',
  'Samir', 'Chloe', 'Mateo', 'Freya', 'Dmitri', 'Nadia', 'Elliot', 'Harriet', 'Yusuf', 'Greta', 'Anton', 'Leila',
  'Callum', 'Zofia', 'Imran', 'Beatrix', 'Soren', 'Amara',
];
const LAST_NAMES = [
  'Whitfield', 'Natarajan', 'Brandt', 'Okafor', 'Lindqvist', 'Moreau', 'Castellano', 'Haddad', 'Kowalski',
  'Fairweather', 'Abernathy', 'Takahashi', 'Oyelaran', 'Delacroix', 'Varga', 'Pemberton', 'Nakashima', 'Rinaldi',
  'Sorensen', 'Achterberg', 'Quintero', 'Halvorsen', 'Ferreira', 'Dubois', 'Iwasaki', 'Marchetti', 'Olawale',
];
const ROLES = ['office manager', 'finance lead', 'operations manager', 'co-founder', 'IT administrator', 'practice manager'];
const DOMAIN_SUFFIXES = ['studio', 'labs', 'partners', 'group', 'works'];

/** Product tiers with their per-seat monthly prices (cents) and the seat counts customers of that tier have. */
const TIERS: { tier: string; seatCents: number[]; seats: [number, number] }[] = [
  { tier: 'Starter', seatCents: [800, 900, 1000], seats: [2, 5] },
  { tier: 'Team', seatCents: [1200, 1450, 1500, 1900], seats: [3, 12] },
  { tier: 'Business', seatCents: [2400, 2750, 2900], seats: [5, 20] },
  { tier: 'Scale', seatCents: [3500, 3900, 4200], seats: [10, 30] },
];
const SUPPORT_AGENTS = ['r.osei', 'm.castillo', 'j.berg', 'a.nwosu', 'k.lindahl'];

/** The settlement windows an annual card refund may be given, and the single-figure windows of the others. */
const REFUND_WINDOWS = [
  { min: 3, max: 5 },
  { min: 5, max: 7 },
  { min: 7, max: 10 },
];
const CREDIT_DAYS = [5, 7, 10, 14];
const CANCELLATION_DAYS = [2, 3, 4, 5];

export function drawFacts(seed: number): Facts {
  const d = new Draws(seed, SALT);
  const policies = drawPolicies(d);
  const prices: PriceBook = TIERS.map((tier) => d.pick(tier.seatCents));
  const people = drawPeople(d);
  const ticketIds = drawTicketIds(d);
  const invoiceBase = d.int(40_000, 89_000);

  const renewal = isoDate(d.pick([2026, 2027]), d.int(1, 12), d.int(1, 28));
  const clockDate = addDays(renewal, d.int(1, 9));
  const clock = clockAt(clockDate, d.int(8, 17), d.pick([0, 5, 10, 15, 20, 30, 40, 45, 50]));

  const target = drawTarget(d, prices, people[0], ticketIds[0], renewal, invoiceBase);
  const side = drawSide(d, ticketIds[1], renewal, clockDate);
  const resolved = drawResolved(d, prices, people[1], ticketIds[2], renewal, invoiceBase);
  const cancellation = drawCancellation(d, prices, people[2], ticketIds[3], clockDate, invoiceBase);
  const question = drawQuestion(d, prices, people[3], ticketIds[4], clockDate, invoiceBase);
  const addOnQuestion = d.chance(1, 2) ? drawAddOnQuestion(d, prices, people[4], ticketIds[5], clockDate, invoiceBase) : null;
  const namesCustomer = d.chance(1, 2);
  return { clock, clockDate, namesCustomer, policies, target, side, resolved, cancellation, question, addOnQuestion };
}

/**
 * The clauses the knowledge base states: the annual policy refunds the duplicate to the card, the monthly one
 * credits the account, and each names its own window. The windows are drawn apart so no policy's figure is
 * another's (a careless agent's wrong window is then always a different value).
 */
function drawPolicies(d: Draws): Policies {
  const refund = d.pick(REFUND_WINDOWS);
  const creditDays = d.pick(CREDIT_DAYS.filter((n) => n !== refund.min && n !== refund.max));
  const cancellationDays = d.pick(CANCELLATION_DAYS.filter((n) => n !== refund.min && n !== refund.max && n !== creditDays));
  const annual: DuplicatePolicy = {
    plan: 'annual',
    remedy: 'card_refund',
    priority: 'high',
    team: 'billing',
    resolution: 'refund_issued',
    window: refund,
    variant: d.int(0, 2),
  };
  const monthly: DuplicatePolicy = {
    plan: 'monthly',
    remedy: 'account_credit',
    priority: 'normal',
    team: 'billing',
    resolution: 'credit_issued',
    window: { min: creditDays, max: creditDays },
    variant: d.int(0, 2),
  };
  return { annual, monthly, cancellationDays, articleIds: drawArticleIds(d) };
}

/** Article ids change per instance, so neither position nor id tells the articles apart. */
function drawArticleIds(d: Draws): ArticleIds {
  const billing = d.sample(range(100, 199), 7).map((n) => `KB-BIL-${n}`);
  const [annual, monthly, cancellation, addOn, cycles, billingContact, taxId] = billing;
  const [priorities, routing] = d.sample(range(1, 9), 2).map((n) => `KB-GEN-00${n}`);
  return { annual, monthly, cancellation, addOn, cycles, billingContact, taxId, pdfExport: `KB-TEC-${d.int(200, 299)}`, priorities, routing };
}

/** Five customers whose first and last names are all different, so no reply to one can name another. */
function drawPeople(d: Draws): Person[] {
  const firsts = d.sample(FIRST_NAMES, 5);
  const lasts = d.sample(LAST_NAMES, 5);
  const accounts = d.sample(range(10, 99), 5).map((n) => `ACC-${n}${d.digits(3)}`);
  return firsts.map((first, i) => ({ first, last: lasts[i], name: `${first} ${lasts[i]}`, account: accounts[i] }));
}

/** Six ticket ids close together, as a help desk numbers tickets that arrive the same week. */
function drawTicketIds(d: Draws): string[] {
  const base = d.int(1000, 9900);
  return d.sample(range(0, 60), 6).map((offset) => `T-${base + offset}`);
}

/** The instance's price list: one per-seat monthly price per tier, so every customer on a tier pays the same rate. */
type PriceBook = number[];

function drawPlan(d: Draws, prices: PriceBook, type: PlanType, tierIndex?: number): Plan {
  const index = tierIndex ?? d.int(0, TIERS.length - 1);
  const spec = TIERS[index];
  const seatMonthlyCents = prices[index];
  const seats = d.int(spec.seats[0], spec.seats[1]);
  const seatPeriodCents = type === 'annual' ? seatMonthlyCents * 10 : seatMonthlyCents;
  return {
    type,
    tier: spec.tier,
    name: `${spec.tier} ${type === 'annual' ? 'Annual' : 'Monthly'}`,
    seats,
    seatMonthlyCents,
    priceCents: seats * seatPeriodCents,
  };
}

function drawCard(d: Draws): Card {
  return { brand: d.pick(ACCEPTED_CARD_BRANDS), last4: d.digits(4) };
}

function drawTarget(d: Draws, prices: PriceBook, person: Person, ticketId: string, renewal: IsoDate, invoiceBase: number): TargetCase {
  const type: PlanType = d.chance(1, 2) ? 'annual' : 'monthly';
  const plan = drawPlan(d, prices, type);
  const card = drawCard(d);
  // The gateway takes the payment, times out on the confirmation and retries a few minutes later.
  const originalSecond = d.int(3600, 10 * 3600);
  const timeoutSecond = originalSecond + d.int(25, 70);
  const duplicateSecond = timeoutSecond + d.int(30, 360);
  const renewedSecond = duplicateSecond + d.int(5, 30);
  const originalInvoice = invoiceBase + d.int(300, 900);

  // A seat bought before the renewal, billed pro rata up to it: the legitimate smaller charge beside the duplicate.
  const seatsAdded = d.int(1, Math.min(3, plan.seats - 1));
  const daysBefore = type === 'annual' ? d.int(6, 60) : d.int(4, 24);
  const addOnDate = addDays(renewal, -daysBefore);
  const periodDays = type === 'annual' ? 365 : daysBetween(oneMonthBefore(renewal), renewal);
  const seatPeriodCents = type === 'annual' ? plan.seatMonthlyCents * 10 : plan.seatMonthlyCents;
  const addOnCents = Math.round((seatsAdded * seatPeriodCents * daysBefore) / periodDays);

  const signIn = d.chance(1, 2) ? d.int(2, 20) * 3600 : null;
  return {
    ticketId,
    customer: { ...person, tier: d.pick(['standard', 'standard', 'premium'] as const), role: d.pick(ROLES), domain: `${person.last.toLowerCase()}-${d.pick(DOMAIN_SUFFIXES)}.com` },
    plan,
    card,
    renewal,
    originalInvoice: `INV-${originalInvoice}`,
    duplicateInvoice: `INV-${originalInvoice + 1}`,
    originalAt: timestamp(renewal, originalSecond),
    timeoutAt: timestamp(renewal, timeoutSecond),
    duplicateAt: timestamp(renewal, duplicateSecond),
    renewedAt: timestamp(renewal, renewedSecond),
    addOn: { invoice: `INV-${invoiceBase + d.int(0, 250)}`, date: addOnDate, at: timestamp(addOnDate, d.int(8 * 3600, 18 * 3600)), seats: seatsAdded, cents: addOnCents },
    signInAt: signIn === null ? null : timestamp(renewal, renewedSecond + signIn),
    wording: d.pick(['neutral', 'neutral', 'renewal', 'month'] as const),
    subjectVariant: d.int(0, 3),
    bodyVariant: d.int(0, 2),
    moodVariant: d.int(0, 3),
    statesAmount: d.chance(1, 2),
    datesAddOn: d.chance(1, 2),
    // The ticket arrives with whatever the intake form set; sometimes that is already what the policy asks.
    preset: {
      priority: d.pick(['low', 'normal', 'normal', 'high'] as const),
      team: d.pick([null, null, 'billing', 'general_support'] as const),
    },
  };
}

function drawSide(d: Draws, ticketId: string, renewal: IsoDate, clockDate: IsoDate): SideTicket {
  const issue = d.pick(['pdf_export', 'billing_contact', 'tax_id'] as const);
  const day = addDays(clockDate, -d.int(1, daysBetween(renewal, clockDate) + 10));
  return {
    ticketId,
    issue,
    at: timestamp(day, d.int(8 * 3600, 18 * 3600)),
    requestId: `${hex(d, 4)}-${hex(d, 4)}`,
    vatNumber: `GB${d.digits(9)}`,
    preset: d.pick(['low', 'normal'] as const),
  };
}

function drawResolved(d: Draws, prices: PriceBook, person: Person, ticketId: string, renewal: IsoDate, invoiceBase: number): ResolvedDuplicate {
  const plan = drawPlan(d, prices, d.chance(1, 2) ? 'annual' : 'monthly');
  // Charged and put right before the target's own renewal, so it is plainly an older, finished case.
  const day = addDays(renewal, -d.int(3, 20));
  const originalSecond = d.int(3600, 9 * 3600);
  const duplicateSecond = originalSecond + d.int(30, 300);
  const original = invoiceBase - d.int(200, 2000);
  return {
    ticketId,
    customer: { ...person, tier: d.pick(['standard', 'premium'] as const) },
    plan,
    card: drawCard(d),
    renewal: day,
    originalInvoice: `INV-${original}`,
    duplicateInvoice: `INV-${original + 1}`,
    originalAt: timestamp(day, originalSecond),
    duplicateAt: timestamp(day, duplicateSecond),
    remedyAt: timestamp(addDays(day, d.int(1, 2)), d.int(9 * 3600, 17 * 3600)),
    agent: d.pick(SUPPORT_AGENTS),
  };
}

function drawCancellation(d: Draws, prices: PriceBook, person: Person, ticketId: string, clockDate: IsoDate, invoiceBase: number): Cancellation {
  const plan = drawPlan(d, prices, d.chance(2, 3) ? 'monthly' : 'annual', d.int(0, 1));
  const paidOn = addDays(clockDate, -d.int(3, 12));
  const cancelledOn = addDays(paidOn, d.int(1, daysBetween(paidOn, clockDate) - 1));
  return {
    ticketId,
    customer: { ...person, tier: 'standard' },
    plan,
    card: drawCard(d),
    invoice: `INV-${invoiceBase + d.int(1000, 1600)}`,
    paidOn,
    paidAt: timestamp(paidOn, d.int(7 * 3600, 20 * 3600)),
    cancelledOn,
    cancelledAt: timestamp(cancelledOn, d.int(7 * 3600, 20 * 3600)),
  };
}

function drawQuestion(d: Draws, prices: PriceBook, person: Person, ticketId: string, clockDate: IsoDate, invoiceBase: number): CycleQuestion {
  const plan = drawPlan(d, prices, 'monthly', d.int(1, 2));
  return {
    ticketId,
    customer: { ...person, tier: 'premium' },
    plan,
    card: drawCard(d),
    invoice: `INV-${invoiceBase + d.int(1700, 2400)}`,
    paidAt: timestamp(addDays(clockDate, -d.int(2, 20)), d.int(5 * 3600, 7 * 3600)),
    targetSeats: plan.seats + d.int(2, 6),
  };
}

function drawAddOnQuestion(d: Draws, prices: PriceBook, person: Person, ticketId: string, clockDate: IsoDate, invoiceBase: number): AddOnQuestion {
  const plan = drawPlan(d, prices, d.chance(1, 2) ? 'annual' : 'monthly');
  const seats = d.int(1, 2);
  const daysLeft = d.int(5, 25);
  const date = addDays(clockDate, -d.int(1, 6));
  const seatPeriodCents = plan.type === 'annual' ? plan.seatMonthlyCents * 10 : plan.seatMonthlyCents;
  return {
    ticketId,
    customer: { ...person, tier: d.pick(['standard', 'premium'] as const) },
    plan,
    card: drawCard(d),
    invoice: `INV-${invoiceBase + d.int(2500, 3000)}`,
    date,
    at: timestamp(date, d.int(8 * 3600, 18 * 3600)),
    seats,
    cents: Math.round((seats * seatPeriodCents * daysLeft) / (plan.type === 'annual' ? 365 : 30)),
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function hex(d: Draws, length: number): string {
  let out = '';
  while (out.length < length) out += '0123456789abcdef'[d.int(0, 15)];
  return out;
}

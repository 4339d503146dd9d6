import { type Action, type ActiveTicketView, type SearchHit, PRIORITIES, RESOLUTION_CODES, TEAMS, type Priority, type ResolutionCode, type Team, type SolverEnvironment, type Solve, type SolverOptions, type FamilySolver } from '../kit';
import { dayMonth, usdFromCents } from '../shared';

/**
 * The reference solver of the billing duplicate-charge family: a careful Tier-1 agent that reads only what the
 * API shows. It finds the open ticket whose charges show a gateway retry's duplicate, searches the knowledge
 * base with the complaint's words, reads the plan type in the contract notes, follows the duplicate-charge
 * policy for that plan type (searching again when that policy is not on top), and replies and resolves with the
 * figures the article and the account's events give.
 */

const PLAN_TYPES = ['annual', 'monthly'] as const;
type PlanType = (typeof PLAN_TYPES)[number];

interface Charge {
  invoice: string;
  cents: number;
  at: string;
  period: string | null;
  card: string | null;
  detail: string;
}

interface Charges {
  original: Charge;
  duplicate: Charge;
  addOn: Charge | null;
}

interface Decisions {
  priority: Priority;
  team: Team;
  resolution: ResolutionCode;
  window: string | null;
}

export const solveBillingDuplicateCharge: Solve = (env, options = {}) => {
  const found = findTarget(env);
  if (!found) return;
  const { ticket, charges } = found;
  const policy = choosePolicy(env, ticket, options);
  if (!policy || env.done) return;
  const decisions = readDecisions(policy.body);
  if (!decisions) return;
  const actions: Action[] = [
    { type: 'set_priority', priority: decisions.priority },
    { type: 'route_ticket', team: decisions.team },
    { type: 'send_reply', message: composeReply(ticket, charges, decisions) },
    { type: 'resolve_ticket', resolution: decisions.resolution, amount: charges.duplicate.cents / 100 },
  ];
  for (const action of actions) if (!env.done) env.step(action);
};

const COMPLAINT = /\b(twice|double|duplicate|two charges|billed two times)\b/i;

/**
 * Opens the open tickets, the likeliest first (a subject about a double charge, from the customer the instruction
 * names), until one whose events show two paid invoices for the same period.
 */
function findTarget(env: SolverEnvironment): { ticket: ActiveTicketView; charges: Charges } | null {
  const instruction = env.first.instruction;
  const named = env.first.inbox.some((t) => instruction.includes(t.customer_name));
  const rank = (t: (typeof env.first.inbox)[number]) =>
    (COMPLAINT.test(t.subject) ? 0 : 2) + (named && !instruction.includes(t.customer_name) ? 1 : 0);
  const candidates = env.first.inbox
    .filter((t) => t.status !== 'resolved')
    .map((t, i) => ({ t, i, rank: rank(t) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  for (const { t } of candidates) {
    if (env.done) return null;
    const ticket = env.step({ type: 'open_ticket', ticket_id: t.ticket_id }).observation.active_ticket;
    const charges = ticket ? readCharges(ticket) : null;
    if (ticket && charges) return { ticket, charges };
  }
  return null;
}

/** "Invoice INV-88213 paid: $1,440.00 Business plan, 6 seats, billing period from 2027-01-16 (Visa 3226)". */
function readCharges(ticket: ActiveTicketView): Charges | null {
  const charges: Charge[] = [];
  for (const event of ticket.recent_events) {
    const paid = /Invoice (INV-\d+) paid: \$([\d,]+)\.(\d{2})\b/.exec(event.detail);
    if (!paid) continue;
    charges.push({
      invoice: paid[1],
      cents: Number(paid[2].replace(/,/g, '')) * 100 + Number(paid[3]),
      at: event.at,
      period: /billing period from (\d{4}-\d{2}-\d{2})/.exec(event.detail)?.[1] ?? null,
      card: /\(([A-Za-z]+ \d{4})\)\s*$/.exec(event.detail)?.[1] ?? null,
      detail: event.detail,
    });
  }
  charges.sort((a, b) => a.at.localeCompare(b.at));
  for (const [i, first] of charges.entries()) {
    if (first.period === null) continue;
    // The retry: a second paid invoice with the same amount for the same period; the later one is the duplicate.
    const again = charges.slice(i + 1).find((c) => c.period === first.period && c.cents === first.cents);
    if (again) return { original: first, duplicate: again, addOn: charges.find((c) => /add-on/i.test(c.detail)) ?? null };
  }
  return null;
}

/**
 * The policy to follow. A careful agent searches with the complaint's words, then keeps the duplicate-charge
 * policy for the plan type the contract notes state, searching again with that plan type when the first search
 * put the other policy on top. The ablations: `firstSearchHit` follows whatever came first; `ignoreContractNotes`
 * decides the plan type from the customer's own words, or failing those from the policy the search ranked first.
 */
function choosePolicy(env: SolverEnvironment, ticket: ActiveTicketView, options: SolverOptions): SearchHit | null {
  const first = search(env, complaintQuery(ticket.subject));
  if (options.firstSearchHit) return first[0] ?? null;
  const notes = options.ignoreContractNotes ? [] : ticket.contract_notes;
  const plan =
    PLAN_TYPES.find((p) => p === options.readCaseAs) ??
    planFromNotes(notes) ??
    planFromWords(`${ticket.subject} ${ticket.body}`) ??
    first.map(planOfPolicy).find((p) => p !== null);
  if (!plan) return first[0] ?? null;
  const chosen = first.find((hit) => planOfPolicy(hit) === plan);
  if (chosen && chosen === first[0]) return chosen;
  // Not on top: search again, with the policy's own title when the first search showed it, so that the policy
  // followed is the one a search put first.
  const queries = chosen ? [chosen.title, `duplicate charges ${plan} plans`] : [`duplicate charges ${plan} plans`, `${plan} plan charged twice`];
  for (const query of queries) {
    const results = search(env, query);
    const policy = results.find((hit) => planOfPolicy(hit) === plan);
    if (policy && policy === results[0]) return policy;
  }
  return chosen ?? null;
}

function search(env: SolverEnvironment, query: string): SearchHit[] {
  if (env.done) return [];
  return env.step({ type: 'search_policy', query }).observation.search_results?.results ?? [];
}

const QUERY_STOP_WORDS = new Set(['for', 'our', 'the', 'my', 'on', 'from', 'a', 'was', 'were', 'we', 'why', 'this', 'last', 'taken', 'to', 'of']);

/** The subject's own words and what the customer is reporting: "charged twice renewal duplicate charge". */
function complaintQuery(subject: string): string {
  const words = subject.toLowerCase().replace(/[^a-z\s-]/g, ' ').split(/\s+/).filter((w) => w.length > 1 && !QUERY_STOP_WORDS.has(w));
  return [...new Set([...words, 'duplicate', 'charge'])].slice(0, 10).join(' ');
}

/** "Plan: Team Annual, $3,480.00 per year, ..." */
function planFromNotes(notes: string[]): PlanType | null {
  for (const note of notes) {
    const plan = /^Plan:\s*([^,]+)/i.exec(note)?.[1] ?? '';
    if (/\bannual\b|\byearly\b/i.test(plan) || /\bper year\b/i.test(note)) return 'annual';
    if (/\bmonthly\b/i.test(plan) || /\bper month\b/i.test(note)) return 'monthly';
  }
  return null;
}

/** What a reader without the notes would go by: "renewal" sounds yearly, "this month's payment" monthly. */
function planFromWords(text: string): PlanType | null {
  if (/\b(annual|yearly|year|renewal)\b/i.test(text)) return 'annual';
  if (/\bmonth/i.test(text)) return 'monthly';
  return null;
}

/** The plan type a duplicate-charge policy applies to, read from its title and "When it applies:" clause. */
function planOfPolicy(hit: SearchHit): PlanType | null {
  const applies = /When it applies:(.*?)What to do:/is.exec(hit.body)?.[1] ?? '';
  const scope = `${hit.title} ${applies}`;
  if (!/duplicate|twice|more than once|two identical/i.test(scope)) return null;
  if (/annual/i.test(scope)) return 'annual';
  if (/monthly/i.test(scope)) return 'monthly';
  return null;
}

function readDecisions(body: string): Decisions | null {
  const priority = /set the priority to (\w+)/i.exec(body)?.[1].toLowerCase();
  const team = (/route the ticket to the (\w+) team/i.exec(body) ?? /route to (\w+)/i.exec(body))?.[1].toLowerCase();
  const resolution = /resolve (?:the ticket )?as (\w+)/i.exec(body)?.[1].toLowerCase();
  if (!isOneOf(PRIORITIES, priority) || !isOneOf(TEAMS, team) || !isOneOf(RESOLUTION_CODES, resolution)) return null;
  const tell = /What to tell the customer:(.*?)(Exceptions:|$)/is.exec(body)?.[1] ?? '';
  const window = /(\d+)\s*(?:-|to)\s*(\d+) business days/i.exec(tell) ?? /(\d+) business days/i.exec(tell);
  return { priority, team, resolution, window: window ? (window[2] ? `${window[1]}-${window[2]}` : window[1]) + ' business days' : null };
}

function isOneOf<T extends string>(values: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (values as readonly string[]).includes(value);
}

function dayOf(at: string): string {
  return dayMonth(Date.UTC(Number(at.slice(0, 4)), Number(at.slice(5, 7)) - 1, Number(at.slice(8, 10))));
}

/** The reply: what happened, what was done about the duplicate and when the customer sees it, in plain prose. */
function composeReply(ticket: ActiveTicketView, charges: Charges, decisions: Decisions): string {
  const name = ticket.customer.name.split(' ')[0];
  const { original, duplicate, addOn } = charges;
  const card = duplicate.card ? duplicate.card.replace(/ (\d{4})$/, ' ending $1') : 'card';
  const lines = [
    `Hi ${name},`,
    '',
    `Thank you for flagging this, and sorry for the trouble. Your card was charged twice for the same billing period: invoice ${duplicate.invoice} repeated invoice ${original.invoice} a few minutes later, after our payment gateway retried the payment.`,
  ];
  if (decisions.resolution === 'credit_issued') {
    lines.push(
      `On your plan a duplicate charge is put right with an account credit rather than a card refund, so we have applied an account credit of ${usdFromCents(duplicate.cents)} for the duplicate.` +
        (decisions.window ? ` The credit will appear on your next invoice within ${decisions.window}.` : ''),
    );
  } else {
    lines.push(
      `We have refunded the duplicate charge of ${usdFromCents(duplicate.cents)} to your ${card}.` + (decisions.window ? ` Card refunds settle within ${decisions.window}.` : ''),
    );
  }
  if (addOn) lines.push(`The ${usdFromCents(addOn.cents)} charge on ${dayOf(addOn.at)} was for the seat${/, 1 seat/.test(addOn.detail) ? '' : 's'} you added, so that one is correct.`);
  lines.push('', 'Kind regards,', 'Northwind Cloud Support');
  return lines.join('\n');
}

/** The reference solver, and what the family's `hard` text claims of its ablations (means over seeds 0-199). */
export const solver: FamilySolver = { solve: solveBillingDuplicateCharge, ablationMeanAtMost: { ignoreContractNotes: 0.7, firstSearchHit: 0.7 }, caseKinds: PLAN_TYPES };

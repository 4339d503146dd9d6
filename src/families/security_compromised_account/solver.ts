import { type ActiveTicketView, type Observation, type SearchHit, PRIORITIES, RESOLUTION_CODES, TEAMS, type Priority, type ResolutionCode, type Team, type SolverEnvironment, type Solve, type SolverOptions, type FamilySolver } from '../kit';
import { weekdayDayMonth } from '../shared';

/*
 * The reference solver of security_compromised_account: a careful agent reading only what the API shows.
 * It finds the named customer's account ticket, reads the event log against the usual sign-in locations in the
 * contract notes to tell the case apart, searches first with the customer's own subject line (as a person would)
 * and then with a query naming the case the events show; then it does what the policy it follows says.
 */

const POLICY_KINDS = ['takeover', 'login_alert', 'forgotten_password'] as const;
type PolicyKind = (typeof POLICY_KINDS)[number];

interface LoggedLogin {
  at: number;
  place: string;
  city: string;
  newDevice: boolean;
}

const HOUR = 3_600_000;
/** A query naming each case, in the words of the case rather than of any one customer. */
const CASE_QUERIES: Record<PolicyKind, string> = {
  takeover: 'compromised account takeover',
  login_alert: 'suspicious login alert no account changes',
  forgotten_password: 'forgotten password locked out',
};
const KIND_OF_RESOLUTION: Partial<Record<ResolutionCode, PolicyKind>> = {
  security_escalation: 'takeover',
  information_provided: 'login_alert',
  password_reset_sent: 'forgotten_password',
};

/** "It is now 08:00 UTC on Saturday 28 November 2026." */
function clockOf(instruction: string): number {
  const m = /It is now (\d{2}):(\d{2}) UTC on \w+ (\d{1,2}) (\w+) (\d{4})/.exec(instruction);
  if (!m) throw new Error('the instruction does not say what time it is');
  return Date.parse(`${m[3]} ${m[4]} ${m[5]} ${m[1]}:${m[2]} UTC`);
}

/** "Usual sign-in locations: Lisbon, PT and Porto, PT." */
function usualPlaces(notes: string[]): string[] {
  const note = notes.find((n) => n.startsWith('Usual sign-in locations:'));
  if (!note) return [];
  return (/^Usual sign-in locations: (.*?)\./.exec(note)?.[1] ?? '').split(' and ').map((p) => p.trim());
}

function successfulLogins(ticket: ActiveTicketView): LoggedLogin[] {
  return ticket.recent_events.flatMap((e) => {
    const m = /^Successful login from (new device, )?IP \S+ \((([^,]+), [A-Z]{2})\)/.exec(e.detail);
    return m ? [{ at: Date.parse(e.at), place: m[2], city: m[3], newDevice: m[1] !== undefined }] : [];
  });
}

function isChange(detail: string): boolean {
  return detail === 'Password changed' || detail === 'MFA disabled' || /^API key '.+' created/.test(detail) || /^Export of .* started$/.test(detail);
}

/** The first sign-in from a new device or from somewhere that is not a usual location. */
function unrecognised(ticket: ActiveTicketView, usual: string[]): LoggedLogin | undefined {
  return successfulLogins(ticket).find((l) => l.newDevice || !usual.includes(l.place));
}

/** What the events show: an unrecognised sign-in followed by a change, one with nothing after it, or neither. */
function caseOf(ticket: ActiveTicketView, usual: string[]): PolicyKind {
  const login = unrecognised(ticket, usual);
  if (!login) return 'forgotten_password';
  const changed = ticket.recent_events.some((e) => Date.parse(e.at) > login.at && isChange(e.detail));
  return changed ? 'takeover' : 'login_alert';
}

interface Policy {
  priority?: Priority;
  team?: Team;
  resolution?: ResolutionCode;
  kind?: PolicyKind;
  windowHours?: number;
  expiryMinutes?: number;
}

function oneOf<T extends string>(values: readonly T[], word: string | undefined): T | undefined {
  return values.find((v) => v === word);
}

/** The decisions an article states in the runbook's phrasings, and the figures it tells the customer. */
function readPolicy(article: SearchHit | undefined): Policy {
  if (!article) return {};
  const body = article.body;
  const resolution = oneOf(RESOLUTION_CODES, /[Rr]esolve (?:the ticket )?as (\w+)/.exec(body)?.[1]);
  return {
    priority: oneOf(PRIORITIES, /[Ss]et the priority to (\w+)/.exec(body)?.[1]),
    team: oneOf(TEAMS, /[Rr]oute the ticket to the (\w+) team/.exec(body)?.[1] ?? /[Rr]oute to (\w+)/.exec(body)?.[1]),
    resolution,
    kind: resolution ? KIND_OF_RESOLUTION[resolution] : undefined,
    windowHours: Number(/created in the last (\d+) hours/.exec(body)?.[1]) || undefined,
    expiryMinutes: Number(/expires in (\d+) minutes/.exec(body)?.[1]) || undefined,
  };
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function spokenDate(at: number): string {
  return `${weekdayDayMonth(at)} at ${new Date(at).toISOString().slice(11, 16)} UTC`;
}

const SIGN_OFF = '\n\nBest regards,\nNorthwind Cloud Support';

/** The reply the followed policy asks for, with this account's facts. */
function replyFor(policy: Policy, ticket: ActiveTicketView, usual: string[], clock: number): string {
  const hello = `Hello ${ticket.customer.name.split(' ')[0]},\n\n`;
  if (policy.kind === 'takeover') {
    const hours = policy.windowHours ?? 72;
    const keys = ticket.recent_events
      .filter((e) => Date.parse(e.at) >= clock - hours * HOUR)
      .flatMap((e) => /^API key '(.+)' created/.exec(e.detail)?.[1] ?? []);
    // With no key created in the window there was nothing to revoke, and the reply says so.
    const revoked = keys.length > 0
      ? `Every API key created in the last ${hours} hours has been revoked, including ${listed(keys)}.`
      : `No API keys were created in the last ${hours} hours, so there were none to revoke.`;
    return (
      hello +
      'We are treating the activity on your account as a security incident. We have locked your account and signed out all active sessions. ' +
      `${revoked} Before access is restored, we will verify your identity on a video call; our security team will contact you to arrange it. ` +
      'Please never send passwords by email.' +
      SIGN_OFF
    );
  }
  if (policy.kind === 'login_alert') {
    const login = unrecognised(ticket, usual);
    const when = login ? `The new sign-in on your account was on ${spokenDate(login.at)} from ${login.city}${login.newDevice ? ', on a new device' : ''}. ` : '';
    return (
      hello +
      when +
      "No password, MFA or API key changes followed it. You'll find all your active sessions under Settings > Security. " +
      'Each session has a Sign out button, so an unfamiliar device can be removed straight away; after that, please change your password as well.' +
      SIGN_OFF
    );
  }
  if (policy.kind === 'forgotten_password') {
    const minutes = policy.expiryMinutes ?? 30;
    return (
      hello +
      `We have sent a new password reset link to the email address on your account. The link expires in ${minutes} minutes. ` +
      "It's worth checking your spam or junk folder too, as reset emails are sometimes filtered there." +
      SIGN_OFF
    );
  }
  return `${hello}Thank you for your message. We are looking into your account and will be in touch.${SIGN_OFF}`;
}

/** The named customer's ticket about their account: theirs, not settled, with sign-in activity in its log. */
function openAccountTicket(env: SolverEnvironment): ActiveTicketView {
  const { inbox, instruction } = env.first;
  const name = inbox.map((t) => t.customer_name).find((n) => instruction.includes(n));
  let last: ActiveTicketView | null = null;
  for (const entry of inbox.filter((t) => t.customer_name === name && t.status !== 'resolved')) {
    const ticket = env.step({ type: 'open_ticket', ticket_id: entry.ticket_id }).observation.active_ticket!;
    last = ticket;
    if (ticket.recent_events.some((e) => e.kind === 'login' || e.kind === 'auth')) return ticket;
  }
  if (!last) throw new Error('no open ticket of the customer the instruction names');
  return last;
}

/** The article to follow: the first search's top hit, or the one for the case the events show. */
function findPolicy(env: SolverEnvironment, ticket: ActiveTicketView, kind: PolicyKind, options: SolverOptions): SearchHit | undefined {
  const search = (query: string): Observation => env.step({ type: 'search_policy', query }).observation;
  const first = search(ticket.subject).search_results?.results ?? [];
  if (options.firstSearchHit) return first[0];
  // Whatever the subject brought up, a query naming the case the events show: the customer's words may point
  // elsewhere, and a subject made of the instruction's own words would not count as consulting anything.
  const second = search(CASE_QUERIES[kind]).search_results?.results ?? [];
  return second.find((hit) => readPolicy(hit).kind === kind) ?? first.find((hit) => readPolicy(hit).kind === kind);
}

export const solveSecurityCompromisedAccount: Solve = (env, options = {}) => {
  const clock = clockOf(env.first.instruction);
  const ticket = openAccountTicket(env);
  const usual = usualPlaces(options.ignoreContractNotes ? [] : ticket.contract_notes);
  const kind = POLICY_KINDS.find((k) => k === options.readCaseAs) ?? caseOf(ticket, usual);
  const policy = readPolicy(findPolicy(env, ticket, kind, options));
  if (policy.priority) env.step({ type: 'set_priority', priority: policy.priority });
  if (policy.team) env.step({ type: 'route_ticket', team: policy.team });
  env.step({ type: 'send_reply', message: replyFor(policy, ticket, usual, clock) });
  env.step({ type: 'resolve_ticket', resolution: policy.resolution ?? 'information_provided' });
};

/** The reference solver, and what the family's `hard` text claims of its ablations (means over seeds 0-199). */
export const solver: FamilySolver = { solve: solveSecurityCompromisedAccount, ablationMeanAtMost: { ignoreContractNotes: 0.69, firstSearchHit: 0.6 }, caseKinds: POLICY_KINDS };

import { type ActiveTicketView, type Observation, type SearchHit, PRIORITIES, RESOLUTION_CODES, TEAMS, type Priority, type ResolutionCode, type Team, type SolverEnvironment, type Solve, type SolverOptions, type FamilySolver } from '../kit';
import { weekdayDayMonth } from '../shared';
import { CASE_KINDS as G4_KINDS, type G4Kind } from './case-facts';

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
  // Generator version 4's accounts state their plan's seats, and its knowledge base has a triage article (below).
  if (ticket.contract_notes.some((n) => SEATS_NOTE.test(n))) return solveG4(env, ticket, clock, options);
  const usual = usualPlaces(options.ignoreContractNotes ? [] : ticket.contract_notes);
  const kind = POLICY_KINDS.find((k) => k === options.readCaseAs) ?? caseOf(ticket, usual);
  const policy = readPolicy(findPolicy(env, ticket, kind, options));
  if (policy.priority) env.step({ type: 'set_priority', priority: policy.priority });
  if (policy.team) env.step({ type: 'route_ticket', team: policy.team });
  env.step({ type: 'send_reply', message: replyFor(policy, ticket, usual, clock) });
  env.step({ type: 'resolve_ticket', resolution: policy.resolution ?? 'information_provided' });
};

/**
 * The reference solver, and what the family's `hard` text claims of its ablations (means over seeds 0-199) for the
 * version drawing new episodes (g4: 0.32 ignoring the contract notes, 0.16 following the first search hit; version 3's
 * bounds were 0.69 and 0.6). The case kinds are version 4's (the shortcut agents play them).
 */
export const solver: FamilySolver = { solve: solveSecurityCompromisedAccount, ablationMeanAtMost: { ignoreContractNotes: 0.4, firstSearchHit: 0.25 }, caseKinds: G4_KINDS };

/*
 * Generator version 4: six kinds of account case. The triage article orders the rules and states this instance's
 * lock threshold and business-critical seat threshold; the contract notes give the usual locations and the seats;
 * the event log gives the sign-ins and attempts, what failed where and at which step, and what changed after them.
 * The kind's article gives the code, the team, the base priority and the figures told to the customer.
 */

const SEATS_NOTE = /^Plan: [^,]+, (\d+) seats at \$([\d,]+)(?:\.\d{2})? per seat a year\.$/;
const G4_TRIAGE_QUERY = 'account access sign-in activity which policy applies';
const G4_TRIAGE_TITLE = /which policy applies/i;
const G4_QUERIES: Record<G4Kind, string> = {
  takeover: 'compromised account suspected takeover',
  password_exposed: 'password known to someone else stopped at MFA',
  login_alert: 'suspicious login alerts no account changes',
  blocked_attempts: 'failed sign-in attempts from unfamiliar places',
  lockout: 'accounts locked after repeated failed sign-ins',
  forgotten_password: 'forgotten password and locked-out users',
};
const G4_TITLES: [RegExp, G4Kind][] = [
  [/^Compromised account/i, 'takeover'],
  [/^Password known to someone else/i, 'password_exposed'],
  [/^Suspicious login alerts/i, 'login_alert'],
  [/^Failed sign-in attempts from unfamiliar places/i, 'blocked_attempts'],
  [/^Accounts locked after repeated failed sign-ins/i, 'lockout'],
  [/^Forgotten password/i, 'forgotten_password'],
];
const UP: Record<Priority, Priority> = { low: 'normal', normal: 'high', high: 'urgent', urgent: 'urgent' };

function kindOfTitle(title: string): G4Kind | undefined {
  return G4_TITLES.find(([re]) => re.test(title))?.[1];
}

interface Attempted {
  at: number;
  place: string;
  city: string;
  success: boolean;
  newDevice: boolean;
  mfa: boolean;
}

function attempts(ticket: ActiveTicketView): Attempted[] {
  return ticket.recent_events.flatMap((e): Attempted[] => {
    const ok = /^Successful login from (new device, )?IP \S+ \((([^,]+), [A-Z]{2})\)/.exec(e.detail);
    if (ok) return [{ at: Date.parse(e.at), place: ok[2], city: ok[3], success: true, newDevice: ok[1] !== undefined, mfa: false }];
    const failed = /^Failed login from IP \S+ \((([^,]+), [A-Z]{2})\): (.*)$/.exec(e.detail);
    return failed ? [{ at: Date.parse(e.at), place: failed[1], city: failed[2], success: false, newDevice: false, mfa: /MFA code rejected/.test(failed[3]) }] : [];
  });
}

/** The triage article's rules, in its order. */
function caseOfG4(ticket: ActiveTicketView, usual: string[], lockAfter: number): G4Kind {
  const all = attempts(ticket);
  const strange = (a: Attempted) => a.newDevice || !usual.includes(a.place);
  const signIn = all.find((a) => a.success && strange(a));
  if (signIn && ticket.recent_events.some((e) => Date.parse(e.at) > signIn.at && isChange(e.detail))) return 'takeover';
  if (all.some((a) => !a.success && a.mfa && strange(a))) return 'password_exposed';
  if (signIn) return 'login_alert';
  if (all.some((a) => !a.success && strange(a))) return 'blocked_attempts';
  let run = 0;
  for (const a of all) run = a.success ? 0 : run + 1;
  return run >= lockAfter ? 'lockout' : 'forgotten_password';
}

function searchHits(env: SolverEnvironment, query: string): SearchHit[] {
  if (env.done) return [];
  return env.step({ type: 'search_policy', query }).observation.search_results?.results ?? [];
}

function solveG4(env: SolverEnvironment, ticket: ActiveTicketView, clock: number, options: SolverOptions): void {
  const first = searchHits(env, ticket.subject);
  let kind: G4Kind | undefined;
  let article: SearchHit | undefined;
  let lockAfter = 0;
  let seatThreshold = Infinity;
  let accountTeam: Team | undefined;
  let accountTeamFrom = Infinity;
  const notes = options.ignoreContractNotes ? [] : ticket.contract_notes;
  const usual = usualPlaces(notes);
  if (options.firstSearchHit) {
    // The ablation follows the first hit for the case, whatever it applies to (the triage article sets nothing).
    article = first[0];
    kind = article ? kindOfTitle(article.title) : undefined;
    if (!kind) return;
  } else {
    const triage = first.find((hit) => G4_TRIAGE_TITLE.test(hit.title)) ?? searchHits(env, G4_TRIAGE_QUERY).find((hit) => G4_TRIAGE_TITLE.test(hit.title));
    const body = triage?.body ?? '';
    lockAfter = Number(/and (\d+) or more failed sign-ins in a row/.exec(body)?.[1] ?? 5);
    seatThreshold = Number(/those with (\d+) or more seats/.exec(body)?.[1] ?? Infinity);
    accountTeamFrom = Number(/comes to \$([\d,]+)(?:\.\d{2})? or more belong to the account team/.exec(body)?.[1].replace(/,/g, '') ?? Infinity);
    accountTeam = oneOf(TEAMS, /route every such case to the (\w+) team/.exec(body)?.[1]);
    kind = G4_KINDS.find((k) => k === options.readCaseAs) ?? caseOfG4(ticket, usual, lockAfter);
    const wanted = kind;
    article = searchHits(env, G4_QUERIES[kind]).find((hit) => kindOfTitle(hit.title) === wanted);
  }
  const policy = readPolicy(article);
  const tellsLock = Number(/lifts by itself (\d+) hours/.exec(article?.body ?? '')?.[1]) || undefined;
  const tier = ticket.customer.tier;
  const plan = notes.map((n) => SEATS_NOTE.exec(n)).find(Boolean);
  const seats = Number(plan?.[1] ?? 0);
  const annual = seats * Number(plan?.[2].replace(/,/g, '') ?? 0);
  let priority = policy.priority;
  if (priority && !options.firstSearchHit) {
    if (tier !== 'standard' && kind !== 'takeover') priority = UP[priority];
    if (seats >= seatThreshold) priority = UP[priority];
  }
  const team = annual >= accountTeamFrom && accountTeam ? accountTeam : policy.team;
  if (priority) env.step({ type: 'set_priority', priority });
  if (team) env.step({ type: 'route_ticket', team });
  env.step({ type: 'send_reply', message: replyG4(kind, ticket, usual, clock, { ...policy, lockHours: tellsLock }) });
  env.step({ type: 'resolve_ticket', resolution: policy.resolution ?? 'information_provided' });
}

const GREETINGS = ['Hello', 'Hi', 'Dear'];
const SIGN_OFFS = ['\n\nBest regards,\nNorthwind Cloud Support', '\n\nKind regards,\nThe Northwind Cloud security desk', '\n\nThanks for your patience,\nNorthwind Cloud Support'];

/** The reply the kind's policy asks for, in one of three styles (the ticket id picks it), with this account's facts. */
function replyG4(kind: G4Kind, ticket: ActiveTicketView, usual: string[], clock: number, policy: Policy & { lockHours?: number }): string {
  const style = Number(ticket.ticket_id.replace(/\D/g, '')) % 3;
  const hello = `${GREETINGS[style]} ${ticket.customer.name.split(' ')[0]},\n\n`;
  const all = attempts(ticket);
  const strange = (a: Attempted) => a.newDevice || !usual.includes(a.place);
  const pick = (options: string[]) => options[style];
  let text: string;
  switch (kind) {
    case 'takeover': {
      const hours = policy.windowHours ?? 72;
      const keys = ticket.recent_events.filter((e) => Date.parse(e.at) >= clock - hours * HOUR).flatMap((e) => /^API key '(.+)' created/.exec(e.detail)?.[1] ?? []);
      const revoked =
        keys.length > 0
          ? pick([
              `Every API key created in the last ${hours} hours has been revoked, including ${listed(keys)}.`,
              `We have also revoked the API keys created in the last ${hours} hours: ${listed(keys)}.`,
              `Every API key created in the last ${hours} hours has been revoked (${listed(keys)}).`,
            ])
          : pick([
              `No API keys were created in the last ${hours} hours, so there were none to revoke.`,
              `No API keys were created in the last ${hours} hours, so there was nothing to revoke.`,
              `No API keys were created in the last ${hours} hours, so none needed revoking.`,
            ]);
      text = pick([
        `We are treating the activity on your account as a security incident. We have locked your account and signed out all active sessions. ${revoked} Before access is restored, we will verify your identity on a video call; our security team will contact you to arrange it. Please never send passwords by email.`,
        `This looks like someone else got into your account, so we're treating it as a security incident. Your account is now locked and we have signed out every active session. ${revoked} We will verify your identity on a video call before we restore access; our security team will be in touch to set it up. Please don't send passwords by email.`,
        `Thanks for reaching out so quickly. We have locked your account and logged out all active sessions. ${revoked} Before access is restored, our security team will verify your identity on a video call. Please never send passwords by email.`,
      ]);
      break;
    }
    case 'password_exposed': {
      const minutes = policy.expiryMinutes ?? 30;
      const attempt = all.find((a) => !a.success && a.mfa && strange(a));
      const from = attempt ? ` from ${attempt.city}` : '';
      text = pick([
        `Someone tried to sign in to your account${from} with your correct password, and the MFA check stopped them. We have sent a new password reset link to the email address on your account, so you can replace the password. The link expires in ${minutes} minutes. If you use the same password anywhere else, please change it there too.`,
        `Nobody got into your account: a sign-in attempt${from} had your correct password but was stopped at the MFA code. To be safe, we've emailed you a new password reset link. The link is valid for ${minutes} minutes, so please choose a new password soon, and change your password on any other sites where you use it.`,
        `Your password appears to be known to someone else: an attempt${from} used it and failed only at the MFA step. We have sent a password reset link to the email address on file. It expires in ${minutes} minutes. Please also change the password on other services where you use it.`,
      ]);
      break;
    }
    case 'login_alert': {
      const login = all.find((a) => a.success && strange(a));
      const when = login ? `on ${spokenDate(login.at)} from ${login.city}${login.newDevice ? ', on a new device' : ''}` : 'recently';
      text = pick([
        `The new sign-in on your account was ${when}. No password, MFA or API key changes followed it. You'll find all your active sessions under Settings > Security. Each session has a Sign out button, so an unfamiliar device can be removed straight away; after that, please change your password as well.`,
        `We've checked your account: the new sign-in was ${when}, and no password, MFA or API key changes followed it. You can review all your active sessions under Settings > Security. If you see a session you don't recognise, sign it out there with its Sign out button, then change your password.`,
        `The sign-in alert was for a sign-in ${when}. Nothing on the account changed after it. To be sure, check your active sessions under Settings > Security; each one has a Sign out button, so you can sign out any device you don't recognise straight away.`,
      ]);
      break;
    }
    case 'blocked_attempts': {
      const attempt = all.find((a) => !a.success && strange(a));
      const from = attempt ? ` from ${attempt.city}` : '';
      const on = attempt ? `On ${spokenDate(attempt.at)}` : 'Recently';
      const date = attempt ? ` on ${spokenDate(attempt.at)}` : '';
      text = pick([
        `${on}, there were several sign-in attempts on your account${from}. Each of them failed at the password, and all of these attempts were blocked, so nobody got in and nothing on your account needs changing. You can review your active sessions under Settings > Security at any time.`,
        `We looked at the activity on your account. There were several sign-in attempts${from}${date}, and all of them used a wrong password. We blocked every one of those attempts, so nobody got into your account. If you'd like to double-check, you can see your active sessions under Settings > Security.`,
        `The failed sign-in attempts${from} were made${date}. Our sign-in checks blocked all of those attempts, because the password was wrong each time, so your account is safe. You can check your active sessions under Settings > Security.`,
      ]);
      break;
    }
    case 'lockout': {
      const hours = policy.lockHours ?? 24;
      text = pick([
        `Your account has been locked automatically after too many failed sign-ins in a row. The lock will lift automatically ${hours} hours after the last failed sign-in, and you will be able to sign in again then.`,
        `We've checked: your account was locked automatically after several failed sign-ins in a row from your usual location. It will be unlocked automatically ${hours} hours after your last failed sign-in; after that you will be able to sign in again.`,
        `Too many failed sign-ins in a row have locked your account, which is a safety measure. The lock will be lifted ${hours} hours after the last failed sign-in, and you'll then be able to sign in.`,
      ]);
      break;
    }
    case 'forgotten_password': {
      const minutes = policy.expiryMinutes ?? 30;
      text = pick([
        `We have sent a new password reset link to the email address on your account. The link expires in ${minutes} minutes. It's worth checking your spam or junk folder too, as reset emails are sometimes filtered there.`,
        `We've sent a new password reset link to the email address on your account. Please use it soon: the link expires in ${minutes} minutes. If it doesn't arrive, please check your spam or junk folder, as reset emails are sometimes filtered.`,
        `A new password reset link is on its way to the email address we have on file. It is valid for ${minutes} minutes. Reset emails sometimes land in the wrong place, so please check your spam folder too.`,
      ]);
      break;
    }
  }
  return hello + text + SIGN_OFFS[style];
}

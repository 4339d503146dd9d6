import { type ActiveTicketView, type Observation, type SearchHit, PRIORITIES, RESOLUTION_CODES, TEAMS, type Priority, type ResolutionCode, type Team, type SolverEnvironment, type Solve, type SolverOptions, type FamilySolver } from '../kit';
import { weekdayDayMonth } from '../shared';
import { CASE_KINDS as G4_KINDS, type G4Kind } from './case-facts';
import { G5_KINDS, type G5Kind } from './case5-facts';

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
  // Generator version 5's accounts state their annual contract value; version 4's their plan's seats at a price.
  if (ticket.contract_notes.some((n) => G5_PLAN_NOTE.test(n))) return solveG5(env, ticket, clock, options);
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
 * version drawing new episodes (g5: 0.25 ignoring the contract notes, 0.16 following the first search hit; g4's were
 * 0.32 and 0.16 under the same bounds; version 3's bounds were 0.69 and 0.6). The case kinds are version 5's (the shortcut agents play them).
 */
export const solver: FamilySolver = { solve: solveSecurityCompromisedAccount, ablationMeanAtMost: { ignoreContractNotes: 0.4, firstSearchHit: 0.25 }, caseKinds: G5_KINDS };

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

/*
 * Generator version 5: nine kinds of account case. The triage article orders the rules, states this instance's lock
 * threshold, and sets the priority from the case's urgency (its rule per kind, against the recent window and the
 * burst size it states) and the impact (seats against its threshold), and the routing from the annual contract value
 * against its line and the Security Assurance addendum; the kind's article gives the code, the team and the figures
 * told to the customer.
 */

const G5_PLAN_NOTE = /^Plan: [^,]+, (\d+) seats; annual contract value \$([\d,]+)(?:\.\d{2})?\.$/;
const G5_ADDENDUM_NOTE = /^Security Assurance addendum signed/;
const G5_TRIAGE_QUERY = 'account access sign-in activity which policy applies priority routing';
const G5_TRIAGE_TITLE = /which policy applies, priority and routing/i;
const G5_QUERIES: Record<G5Kind, string> = {
  takeover_export: 'compromised account data exported by the intruder',
  takeover_keys: 'compromised account API keys created by the intruder',
  takeover_credentials: 'compromised account password or MFA changed by the intruder',
  password_exposed: 'password known to someone else stopped at MFA',
  login_alert: 'suspicious login alerts no account changes',
  blocked_attempts: 'failed sign-in attempts from unfamiliar places',
  mfa_trouble: 'customer cannot pass the MFA step code not accepted',
  lockout: 'accounts locked after repeated failed sign-ins',
  forgotten_password: 'forgotten password and locked-out users',
};
const G5_TITLES: [RegExp, G5Kind][] = [
  [/^Compromised account: data exported/i, 'takeover_export'],
  [/^Compromised account: API keys/i, 'takeover_keys'],
  [/^Compromised account: password or MFA/i, 'takeover_credentials'],
  [/^Password known to someone else/i, 'password_exposed'],
  [/^Suspicious login alerts/i, 'login_alert'],
  [/^Failed sign-in attempts from unfamiliar places/i, 'blocked_attempts'],
  [/^Customer cannot pass the MFA step/i, 'mfa_trouble'],
  [/^Accounts locked after repeated failed sign-ins/i, 'lockout'],
  [/^Forgotten password/i, 'forgotten_password'],
];

function kindOfTitle5(title: string): G5Kind | undefined {
  return G5_TITLES.find(([re]) => re.test(title))?.[1];
}

const TAKEOVER5: readonly G5Kind[] = ['takeover_export', 'takeover_keys', 'takeover_credentials'];

/** The triage article's rules, in its order. */
function caseOfG5(ticket: ActiveTicketView, usual: string[], lockAfter: number): G5Kind {
  const all = attempts(ticket);
  const strange = (a: Attempted) => a.newDevice || !usual.includes(a.place);
  const signIn = all.find((a) => a.success && strange(a));
  if (signIn) {
    const after = ticket.recent_events.filter((e) => Date.parse(e.at) > signIn.at && isChange(e.detail)).map((e) => e.detail);
    if (after.some((d) => /^Export of/.test(d))) return 'takeover_export';
    if (after.some((d) => /^API key '/.test(d))) return 'takeover_keys';
    if (after.length > 0) return 'takeover_credentials';
  }
  if (all.some((a) => !a.success && a.mfa && strange(a))) return 'password_exposed';
  if (signIn) return 'login_alert';
  if (all.some((a) => !a.success && strange(a))) return 'blocked_attempts';
  if (sinceLastSuccess(all).some((a) => a.mfa)) return 'mfa_trouble';
  let run = 0;
  for (const a of all) run = a.success ? 0 : run + 1;
  return run >= lockAfter ? 'lockout' : 'forgotten_password';
}

function sinceLastSuccess(all: Attempted[]): Attempted[] {
  return all.slice(all.map((a) => a.success).lastIndexOf(true) + 1);
}

/** The triage article's urgency rule for the kind, on this ticket's events. */
function urgentG5(kind: G5Kind, ticket: ActiveTicketView, usual: string[], clock: number, recentHours: number): boolean {
  const all = attempts(ticket);
  const strange = all.filter((a) => a.newDevice || !usual.includes(a.place));
  switch (kind) {
    case 'takeover_export':
    case 'takeover_keys':
    case 'takeover_credentials':
      return true;
    case 'password_exposed':
      return strange.filter((a) => !a.success && a.mfa).length >= 2;
    case 'login_alert': {
      const signIn = strange.find((a) => a.success);
      return signIn !== undefined && clock - signIn.at < recentHours * HOUR;
    }
    case 'blocked_attempts': {
      const last = strange.filter((a) => !a.success).pop();
      return last !== undefined && clock - last.at < recentHours * HOUR;
    }
    case 'mfa_trouble': {
      const last = sinceLastSuccess(all).filter((a) => a.mfa).pop();
      return last !== undefined && clock - last.at < recentHours * HOUR;
    }
    case 'lockout':
    case 'forgotten_password': {
      const lastSuccess = all.filter((a) => a.success).pop()?.at ?? 0;
      return ticket.recent_events.some((e) => e.detail.startsWith('Password reset requested') && Date.parse(e.at) > lastSuccess);
    }
  }
}

function solveG5(env: SolverEnvironment, ticket: ActiveTicketView, clock: number, options: SolverOptions): void {
  const first = searchHits(env, ticket.subject);
  const notes = options.ignoreContractNotes ? [] : ticket.contract_notes;
  const usual = usualPlaces(notes);
  let kind: G5Kind | undefined;
  let article: SearchHit | undefined;
  let priority: Priority | undefined;
  let team: Team | undefined;
  if (options.firstSearchHit) {
    // The ablation follows the first hit for the case, whatever it applies to (the triage article names no resolution).
    article = first[0];
    kind = article ? kindOfTitle5(article.title) : undefined;
    if (!kind) return;
    team = readPolicy(article).team;
  } else {
    const triage = first.find((hit) => G5_TRIAGE_TITLE.test(hit.title)) ?? searchHits(env, G5_TRIAGE_QUERY).find((hit) => G5_TRIAGE_TITLE.test(hit.title));
    const body = triage?.body ?? '';
    const figure = (re: RegExp, fallback: number) => Number(re.exec(body)?.[1].replace(/,/g, '') ?? fallback);
    const lockAfter = figure(/and (\d+) or more failed sign-ins in a row/, 5);
    const seatThreshold = figure(/those with (\d+) or more seats/, Infinity);
    const recentHours = figure(/less than (\d+) hours ago/, 24);
    const accountTeamFrom = figure(/is \$([\d,]+)(?:\.\d{2})? or more belong to the account team/, Infinity);
    const accountTeam = oneOf(TEAMS, /route every such case to the (\w+) team/.exec(body)?.[1]);
    const addendumTeam = oneOf(TEAMS, /addendum in their contract notes have every account access case handled by the (\w+) team/.exec(body)?.[1]);
    // Version 6's desk rota names each tier's desk; version 5 sent standard to one desk, premium and VIP to another.
    const rota = /desk rota sends standard-tier customers to the (\w+) team, premium-tier customers to the (\w+) team and VIP-tier customers to the (\w+) team/.exec(body);
    const desk = /standard-tier customers to the (\w+) team, premium and VIP customers .*? to the (\w+) team/.exec(body);
    const tier = ticket.customer.tier;
    const tierDesk = oneOf(TEAMS, rota ? rota[tier === 'standard' ? 1 : tier === 'premium' ? 2 : 3] : tier === 'standard' ? desk?.[1] : desk?.[2]);
    kind = G5_KINDS.find((k) => k === options.readCaseAs) ?? caseOfG5(ticket, usual, lockAfter);
    const wanted = kind;
    article = searchHits(env, G5_QUERIES[kind]).find((hit) => kindOfTitle5(hit.title) === wanted);
    const plan = notes.map((n) => G5_PLAN_NOTE.exec(n)).find(Boolean);
    const seats = Number(plan?.[1] ?? 0);
    const value = Number(plan?.[2].replace(/,/g, '') ?? 0);
    const urgent = urgentG5(kind, ticket, usual, clock, recentHours);
    const critical = seats >= seatThreshold;
    priority = urgent ? (critical ? 'urgent' : 'high') : critical ? 'normal' : 'low';
    team = value >= accountTeamFrom && accountTeam ? accountTeam : notes.some((n) => G5_ADDENDUM_NOTE.test(n)) && addendumTeam ? addendumTeam : (policyOfG5(kind, article, ticket, usual).team ?? tierDesk);
  }
  const policy = policyOfG5(kind, article, ticket, usual);
  const tellsLock = Number(/lifts by itself (\d+) hours/.exec(article?.body ?? '')?.[1]) || undefined;
  if (priority) env.step({ type: 'set_priority', priority });
  if (team) env.step({ type: 'route_ticket', team });
  env.step({ type: 'send_reply', message: replyG5(kind, ticket, usual, clock, { ...policy, lockHours: tellsLock }) });
  env.step({ type: 'resolve_ticket', resolution: policy.resolution ?? 'information_provided' });
}

/** The article's decisions; blocked attempts escalated when they reach the article's burst size. */
function policyOfG5(kind: G5Kind, article: SearchHit | undefined, ticket: ActiveTicketView, usual: string[]): Policy {
  const policy = readPolicy(article);
  const body = article?.body ?? '';
  const burst = /With (\d+) or more attempts .*?resolve the ticket as (\w+)\b.*? With fewer.*?resolve the ticket as (\w+)\b/.exec(body);
  if (kind !== 'blocked_attempts' || !burst) return policy;
  const blocked = attempts(ticket).filter((a) => !a.success && (a.newDevice || !usual.includes(a.place))).length;
  const run = blocked >= Number(burst[1]);
  return { ...policy, team: undefined, resolution: oneOf(RESOLUTION_CODES, run ? burst[2] : burst[3]) };
}

/** The reply the kind's policy asks for: version 4's for the kinds it had, in one of three styles otherwise. */
function replyG5(kind: G5Kind, ticket: ActiveTicketView, usual: string[], clock: number, policy: Policy & { lockHours?: number }): string {
  if (kind === 'takeover_keys') return replyG4('takeover', ticket, usual, clock, policy);
  if (kind !== 'takeover_export' && kind !== 'takeover_credentials' && kind !== 'mfa_trouble') return replyG4(kind, ticket, usual, clock, policy);
  const style = Number(ticket.ticket_id.replace(/\D/g, '')) % 3;
  const hello = `${GREETINGS[style]} ${ticket.customer.name.split(' ')[0]},\n\n`;
  const pick = (options: string[]) => options[style];
  let text: string;
  if (kind === 'takeover_export') {
    text = pick([
      "We are treating the activity on your account as a security incident. We have locked your account and signed out all active sessions. We have also cancelled the download link of the export that was started from the unfamiliar sign-in, so that file can no longer be fetched. Before access is restored, we will verify your identity on a video call; our security team will contact you to arrange it. Please never send passwords by email.",
      "Someone else signed in to your account and started a data export, so we're treating it as a security incident. Your account is now locked and we have signed out every active session. We have cancelled the export's download link, so the file can't be downloaded. We will verify your identity on a video call before we restore access; our security team will be in touch to set it up.",
      "Thanks for reaching out so quickly. We have locked your account and logged out all active sessions, and we have revoked the download link of the export made after the unrecognised sign-in. Before access is restored, our security team will verify your identity on a video call. Please never send passwords by email.",
    ]);
  } else if (kind === 'takeover_credentials') {
    text = pick([
      'We are treating the activity on your account as a security incident. We have locked your account and signed out all active sessions. Before access is restored, we will verify your identity on a video call; on that call we will turn MFA back on with you, on your own device. Please never send passwords by email.',
      "Someone else signed in to your account and changed its sign-in settings, so we're treating it as a security incident. Your account is now locked and we have signed out every active session. We will verify your identity on a video call before we restore access, and during that call we'll set up two-factor authentication again on your phone.",
      'Thanks for reaching out so quickly. We have locked your account and logged out all active sessions. Before access is restored, our security team will verify your identity on a video call, and we will re-enable MFA with you on that call. Please never send passwords by email.',
    ]);
  } else {
    text = pick([
      "Your password is working: the sign-ins from your usual location were stopped at the MFA code, which usually happens after a new phone or a reinstalled authenticator app. Please sign in with one of the backup codes you saved when you set up MFA, and then set up your authenticator again. We can only remove MFA from the account after verifying your identity on a video call.",
      "The attempts to sign in got past the password and stopped at the two-factor code, so nothing is wrong with your password. You can use one of your backup codes to sign in, then set up the authenticator app again. Before support removes MFA from your account, we will verify your identity on a video call.",
      'Your password was accepted; it is the MFA code that was rejected. Please use one of your backup codes to sign in, and then re-enrol your authenticator. Support removes MFA only after we have verified your identity on a video call, so please keep your backup codes safe.',
    ]);
  }
  return hello + text + SIGN_OFFS[style];
}

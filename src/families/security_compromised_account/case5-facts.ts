import { type CustomerTier, type Priority, type Team, type ResolutionCode, Draws } from '../kit';
import {
  HOUR,
  MINUTE,
  OWN_KEYS,
  alertFor,
  hoursBefore,
  inOrder,
  ipAddress,
  isChange,
  keyName,
  later,
  ownSignIn,
  samePlace,
  type Activity,
  type Person,
} from './facts';
import {
  WORDING_SIZES,
  alertTimeline,
  background,
  blockedTimeline,
  exposedTimeline,
  failedInARow,
  failuresInARow,
  foreignPlace,
  unrecognised,
  type Attempt,
} from './case-facts';

/**
 * Generator version 5's case (issue 23, a low prior: version 4's commonest decision, a takeover of a small standard
 * account, scored 1.0 on 12% of test seeds). Nine kinds of account case, each followed by its own policy article:
 * version 4's takeover split by what the intruder did after signing in (exported data, created API keys, or changed
 * the password or MFA), each with its own containment; version 4's other five kinds; and a customer stopped at their
 * own MFA code. The priority is no longer a policy's: the triage article sets it from the case's urgency (a rule per
 * kind, against the recent window the article states for this instance or the events) and the account's impact
 * (seats against this instance's business-critical threshold); blocked attempts of the policy's burst size or more
 * are escalated; the team is vip_concierge when the annual contract reaches this instance's account-team line, else
 * security_ops when the contract notes carry the Security Assurance addendum, else the incident policies' own team
 * (security_ops) or, for the other kinds, the support-tier desk of the customer's tier. Version 3's customer, clock,
 * distractors and ids, drawn from the same seed; this file's draws use their own salt.
 */

export const CASE5_SALT = 0x5ec55;
/** Generator version 6's case draws: version 5's, in the same order, from their own salt, then the desk rota and the tier note's wording. */
export const CASE6_SALT = 0x5ec65;

export const G5_KINDS = [
  'takeover_export',
  'takeover_keys',
  'takeover_credentials',
  'password_exposed',
  'login_alert',
  'blocked_attempts',
  'mfa_trouble',
  'lockout',
  'forgotten_password',
] as const;
export type G5Kind = (typeof G5_KINDS)[number];

/**
 * How often each kind is drawn: each takeover's containment about a quarter as often as the other kinds, a password
 * known to someone else half as often (the incidents' team is security_ops with or without the addendum), so that no
 * decision (priority, team, resolution, kind) is asked by much more than 1.5% of instances; and the four resolutions
 * each between a fifth and 30% of them.
 */
const KIND_WEIGHTS: Record<G5Kind, number> = {
  takeover_export: 3,
  takeover_keys: 3,
  takeover_credentials: 3,
  password_exposed: 6,
  login_alert: 11,
  blocked_attempts: 13,
  mfa_trouble: 11,
  lockout: 13,
  forgotten_password: 12,
};

/**
 * Generator version 6's weights (with its blocked attempts, of which about two in three reach the burst size and are
 * escalated): each takeover's containment about 3% of instances and the exposed password 8% (their cells spread over
 * two priorities and mostly one team), the other kinds 14-20%, so that each resolution is asked by about a quarter of
 * the instances, no kind by more than about a fifth, and no decision by much more than 1.5%.
 */
const KIND_WEIGHTS6: Record<G5Kind, number> = {
  takeover_export: 5,
  takeover_keys: 5,
  takeover_credentials: 5,
  password_exposed: 12,
  login_alert: 22,
  blocked_attempts: 30,
  mfa_trouble: 22,
  lockout: 26,
  forgotten_password: 26,
};

/** The team the Security Assurance addendum sends every account access case to. */
export const ADDENDUM_TEAM: Team = 'security_ops';

export const TAKEOVERS: readonly G5Kind[] = ['takeover_export', 'takeover_keys', 'takeover_credentials'];

/**
 * What each kind's policy sets: the resolution and the team (null: the support-tier desk of the customer's tier), the
 * triage article's routing apart. Blocked attempts that make a password-guessing run (the policy's burst size or
 * more) are escalated instead: `BURST_DECISION`.
 */
export const G5_DECISIONS: Record<G5Kind, { team: Team | null; code: ResolutionCode }> = {
  takeover_export: { team: 'security_ops', code: 'security_escalation' },
  takeover_keys: { team: 'security_ops', code: 'security_escalation' },
  takeover_credentials: { team: 'security_ops', code: 'security_escalation' },
  password_exposed: { team: 'security_ops', code: 'password_reset_sent' },
  login_alert: { team: null, code: 'information_provided' },
  blocked_attempts: { team: null, code: 'no_action_needed' },
  mfa_trouble: { team: null, code: 'information_provided' },
  lockout: { team: null, code: 'no_action_needed' },
  forgotten_password: { team: null, code: 'password_reset_sent' },
};

export const BURST_DECISION: { team: Team | null; code: ResolutionCode } = { team: null, code: 'security_escalation' };

/** The support-tier desks of the cases no policy sends to a team of its own (generator version 5: fixed). */
export const TIER_DESKS: Record<CustomerTier, Team> = { standard: 'general_support', premium: 'technical_support', vip: 'technical_support' };

/**
 * Generator version 6's support-tier desks: the triage article's desk rota for this instance names the desk of each
 * tier, each drawn from these, so the tier alone tells no team (version 5's fixed desks made one contract-note word,
 * the premium and VIP response target, carry the team of every non-incident case under the account-team line).
 */
export const DESK_TEAMS: readonly Team[] = ['general_support', 'technical_support'];
export const TIERS: readonly CustomerTier[] = ['standard', 'premium', 'vip'];

/** The policy's decision for the case: the kind's, or the escalation of a password-guessing run. */
export function policyDecisionOf(kind: G5Kind, timeline: Activity[], usual: Person['usual'], policy: Pick<G5Policy, 'burstAttempts'>): { team: Team | null; code: ResolutionCode } {
  if (kind !== 'blocked_attempts') return G5_DECISIONS[kind];
  const blocked = logins(timeline).filter((a) => !a.success && unrecognised(a, usual)).length;
  return blocked >= policy.burstAttempts ? BURST_DECISION : G5_DECISIONS[kind];
}

/** The figures the knowledge base states for this instance. */
export interface G5Policy {
  /** This many failed sign-ins in a row (since the last successful one) lock the account. */
  lockAfter: number;
  /** Accounts with this many seats or more are business-critical: high impact. */
  seatThreshold: number;
  /** Accounts whose annual contract is worth this many dollars or more belong to the account team. */
  accountTeamFrom: number;
  /** A lock lifts this many hours after the last failed sign-in. */
  lockHours: number;
  /** A sign-in, blocked attempts or rejected MFA codes within this many hours of now are recent: high urgency. */
  recentHours: number;
  /** This many blocked attempts or more are a password-guessing run, escalated (security_escalation). */
  burstAttempts: number;
  /** The takeover policy revokes API keys created this many hours before the clock (version 3's draw). */
  windowHours: number;
  /** A reset link stays valid this many minutes (version 3's draw). */
  expiryMinutes: number;
}

export interface G5Case {
  kind: G5Kind;
  tier: CustomerTier;
  seats: number;
  /** The annual contract's value in dollars (seats, storage and add-ons), in the contract notes. */
  contractValue: number;
  /** The contract carries the Security Assurance addendum: security_ops handles the account's security cases. */
  addendum: boolean;
  person: Person;
  policy: G5Policy;
  timeline: Activity[];
  urgent: boolean;
  priority: Priority;
  /** The policy's resolution and team, before the triage article's routing. */
  decision: { team: Team | null; code: ResolutionCode };
  team: Team;
  wording: { subject: number; opener: number; middle: number; ask: number; mood: number; signOff: boolean };
  articleVariant: number;
  /** Generator version 6's cases say so (its key's MFA-trouble verification claim is wider); version 5's leave it out. */
  version?: 6;
  /** Generator version 6: this instance's desk rota (the support-tier desk of each tier); version 5's is TIER_DESKS. */
  desks?: Record<CustomerTier, Team>;
  /** Generator version 6: how the contract notes word the support tier (an index into its phrasings). */
  tierNote?: number;
}

/** How many ways generator version 6's contract notes word the support tier. */
export const TIER_NOTE_PHRASINGS = 4;

export const G5_LOCK_AFTER = [3, 4, 5, 6, 8];
export const G5_SEAT_THRESHOLDS = [10, 20, 30, 50];
export const G5_LOCK_HOURS = [2, 4, 6, 12, 24];
export const G5_ACCOUNT_TEAM_FROM = [65000, 85000, 105000, 115000];
export const G5_RECENT_HOURS = [6, 12, 24, 36];
export const G5_BURST = [4, 5, 6, 7];
const G5_SEATS = [4, 6, 8, 12, 15, 18, 22, 25, 28, 35, 40, 45, 55, 65, 80, 100];

/** Priority from the case's urgency and the account's impact (the triage article's table). */
export function priorityOf(urgent: boolean, businessCritical: boolean): Priority {
  if (urgent) return businessCritical ? 'urgent' : 'high';
  return businessCritical ? 'normal' : 'low';
}

/** A takeover by what the intruder does after signing in: exported data, created keys, or only the credentials. */
function takeoverTimeline5(d: Draws, person: Person, clock: number, windowHours: number, kind: G5Kind): Activity[] {
  const foreign = foreignPlace(d, person);
  const loginHours = d.int(2, 20);
  const newDevice = d.chance(1, 2);
  const login: Attempt = { type: 'login', at: hoursBefore(d, clock, loginHours), ip: ipAddress(d), place: foreign, newDevice, success: true };
  // A read-only key of the customer's own, created in the revocation window before the intruder came.
  const own: Activity[] = [];
  if (d.chance(1, 3)) {
    const signIn = ownSignIn(d, person, hoursBefore(d, clock, d.int(loginHours + 2, windowHours - 2)));
    own.push(...signIn, { type: 'api_key_created', at: later(d, signIn[0].at, 2, 9), name: d.pick(OWN_KEYS), access: 'read-only' });
  }
  const changes: Activity[] = [];
  let at = login.at;
  const credentials = kind === 'takeover_credentials';
  const password = credentials ? d.chance(2, 3) : d.chance(1, 2);
  const mfa = credentials ? !password || d.chance(1, 2) : d.chance(1, 3);
  if (password) changes.push({ type: 'password_changed', at: (at = later(d, at, 1, 4)) });
  if (mfa) changes.push({ type: 'mfa_disabled', at: (at = later(d, at, 1, 4)) });
  const keyCount = kind === 'takeover_keys' ? d.pick([1, 1, 2]) : kind === 'takeover_export' ? d.pick([0, 0, 1]) : 0;
  const names = new Set<string>();
  while (names.size < keyCount) names.add(keyName(d));
  for (const name of names) changes.push({ type: 'api_key_created', at: (at = later(d, at, 2, 9)), name, access: 'full' });
  if (kind === 'takeover_export') changes.push({ type: 'export', at: (at = later(d, at, 5, 20)), records: d.int(900, 9800) });
  const back: Activity[] = [];
  if (d.chance(1, 4)) {
    const again: Activity = { type: 'login', at: later(d, at, 10, 90), ip: ipAddress(d), place: foreign, newDevice, success: true };
    back.push(again, alertFor(d, again));
  }
  const attempts: Activity[] = [];
  if (password) {
    const i = d.int(0, person.usual.length - 1);
    const failedAt = Math.min(clock - 10 * MINUTE, later(d, at, 30, 300));
    attempts.push({ type: 'login', at: failedAt, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: false });
    if (d.chance(1, 2)) {
      const resetAt = Math.min(clock - 5 * MINUTE, later(d, failedAt, 1, 3));
      attempts.push({ type: 'reset_requested', at: resetAt, ip: person.homeIps[i], place: person.usual[i] });
      attempts.push({ type: 'reset_email', at: resetAt + 2000, outcome: d.chance(1, 2) ? 'not_opened' : 'delivered' });
    }
  }
  return [...own, login, alertFor(d, login), ...changes, ...back, ...attempts];
}

/**
 * The customer's own sign-ins from a usual place, the password right and the MFA code rejected (a new phone): version
 * 5 draws the first 1-60 hours before the clock, version 6 1-40 hours, so that about half are within the recent window.
 */
function mfaTroubleTimeline(d: Draws, person: Person, clock: number, hoursAgo: readonly [number, number]): Activity[] {
  const i = d.int(0, person.usual.length - 1);
  let at = hoursBefore(d, clock, d.int(hoursAgo[0], hoursAgo[1]));
  const out: Activity[] = [];
  if (d.chance(1, 3)) {
    out.push({ type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: false });
    at = later(d, at, 0, 2);
  }
  const count = d.int(2, 4);
  for (let k = 0; k < count; k++) {
    out.push({ type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: false, mfa: true });
    at = later(d, at, 1, 6);
  }
  return out;
}

/**
 * How many hours before the clock version 5 and version 6 draw the first event of a sign-in alert, MFA trouble and
 * blocked attempts: version 6's, against recent windows of 6-36 hours, make about half of each urgent.
 */
const RECENCY: Record<5 | 6, { alert: readonly [number, number]; mfa: readonly [number, number]; blocked: readonly [number, number] }> = {
  5: { alert: [3, 60], mfa: [1, 60], blocked: [1, 30] },
  6: { alert: [1, 40], mfa: [1, 40], blocked: [1, 40] },
};
/** How many blocked attempts version 5 and version 6 draw (version 6: about two runs in three reach the burst size). */
const BLOCKED_COUNTS: Record<5 | 6, readonly [number, number]> = { 5: [2, 8], 6: [3, 10] };

function timelineOf5(d: Draws, kind: G5Kind, person: Person, clock: number, policy: G5Policy, version: 5 | 6): Activity[] {
  const before = background(d, person, clock);
  switch (kind) {
    case 'takeover_export':
    case 'takeover_keys':
    case 'takeover_credentials':
      return [...before, ...takeoverTimeline5(d, person, clock, policy.windowHours, kind)];
    case 'password_exposed':
      return [...before, ...exposedTimeline(d, person, clock)];
    case 'login_alert':
      return [...before, ...alertTimeline(d, person, clock, RECENCY[version].alert)];
    case 'blocked_attempts':
      return [...before, ...blockedTimeline(d, person, clock, RECENCY[version].blocked, BLOCKED_COUNTS[version])];
    case 'mfa_trouble':
      return [...before, ...mfaTroubleTimeline(d, person, clock, RECENCY[version].mfa)];
    case 'lockout': {
      const count = d.int(policy.lockAfter, policy.lockAfter + 2);
      return [...before, ...failedInARow(d, person, clock, count, d.int(45, policy.lockHours * 60 - 15))];
    }
    case 'forgotten_password':
      return [...before, ...failedInARow(d, person, clock, d.int(1, policy.lockAfter - 1), d.int(45, 360))];
  }
}

const logins = (timeline: Activity[]) => timeline.filter((a): a is Attempt => a.type === 'login');

/** Attempts since the last successful sign-in. */
function sinceLastSuccess(timeline: Activity[]): Attempt[] {
  const all = logins(timeline);
  const last = all.map((a) => a.success).lastIndexOf(true);
  return all.slice(last + 1);
}

/**
 * The triage article's order: an unrecognised sign-in followed by a data export, by an API key created, by a
 * password or MFA change; an unrecognised attempt with the right password stopped at the MFA code; an unrecognised
 * sign-in with nothing after it; unrecognised attempts that all failed; since the last successful sign-in, the
 * customer's own attempts stopped at the MFA code; else the failed sign-ins in a row against the lock threshold.
 */
export function classifyG5(timeline: Activity[], usual: Person['usual'], lockAfter: number): G5Kind {
  const all = logins(timeline);
  const signIn = all.find((a) => a.success && unrecognised(a, usual));
  if (signIn) {
    const after = timeline.filter((a) => a.at > signIn.at && isChange(a));
    if (after.some((a) => a.type === 'export')) return 'takeover_export';
    if (after.some((a) => a.type === 'api_key_created')) return 'takeover_keys';
    if (after.length > 0) return 'takeover_credentials';
  }
  if (all.some((a) => !a.success && a.mfa && unrecognised(a, usual))) return 'password_exposed';
  if (signIn) return 'login_alert';
  if (all.some((a) => !a.success && unrecognised(a, usual))) return 'blocked_attempts';
  if (sinceLastSuccess(timeline).some((a) => a.mfa)) return 'mfa_trouble';
  return failuresInARow(all) >= lockAfter ? 'lockout' : 'forgotten_password';
}

/**
 * The triage article's urgency: a takeover always; a password known to someone else when the MFA code was tried more
 * than once; a sign-in alert, blocked attempts or MFA trouble when the last of it happened within the recent window; a lockout or a forgotten password when the customer has already asked for a reset.
 */
export function urgencyOf(kind: G5Kind, timeline: Activity[], usual: Person['usual'], policy: G5Policy, clock: number): boolean {
  const all = logins(timeline);
  const strange = all.filter((a) => unrecognised(a, usual));
  switch (kind) {
    case 'takeover_export':
    case 'takeover_keys':
    case 'takeover_credentials':
      return true;
    case 'password_exposed':
      return strange.filter((a) => !a.success && a.mfa).length >= 2;
    case 'login_alert':
      return clock - strange.find((a) => a.success)!.at < policy.recentHours * HOUR;
    case 'blocked_attempts':
      return clock - strange.filter((a) => !a.success).pop()!.at < policy.recentHours * HOUR;
    case 'mfa_trouble': {
      const last = sinceLastSuccess(timeline).filter((a) => a.mfa).pop()!;
      return clock - last.at < policy.recentHours * HOUR;
    }
    case 'lockout':
    case 'forgotten_password': {
      const lastSuccess = all.filter((a) => a.success).pop()?.at ?? 0;
      return timeline.some((a) => a.type === 'reset_requested' && a.at > lastSuccess);
    }
  }
}

function drawKind(d: Draws, weights: Record<G5Kind, number>): G5Kind {
  const total = G5_KINDS.reduce((n, k) => n + weights[k], 0);
  let roll = d.int(1, total);
  for (const kind of G5_KINDS) {
    roll -= weights[kind];
    if (roll <= 0) return kind;
  }
  return G5_KINDS[G5_KINDS.length - 1];
}

/**
 * The case of generator version 5, or of version 6 (`version: 6`): its own salt and weights, the same draws in the
 * same order, then this instance's desk rota and the tier note's wording.
 */
export function drawG5Case(seed: number, person: Person, clock: number, windowHours: number, expiryMinutes: number, version: 5 | 6 = 5): G5Case {
  const d = new Draws(seed, version === 6 ? CASE6_SALT : CASE5_SALT);
  const kind = drawKind(d, version === 6 ? KIND_WEIGHTS6 : KIND_WEIGHTS);
  const tier: CustomerTier = d.pick(['standard', 'standard', 'premium', 'vip'] as const);
  const seats = d.pick(G5_SEATS);
  const contractValue = d.int(12, 120) * 1000 + d.pick([0, 250, 500, 750]);
  // Version 6: the addendum on a sixth of the accounts, so that security_ops takes about as many cases as each other team.
  const addendum = version === 6 ? d.chance(1, 6) : d.chance(1, 4);
  const policy: G5Policy = {
    lockAfter: d.pick(G5_LOCK_AFTER),
    seatThreshold: d.pick(G5_SEAT_THRESHOLDS),
    accountTeamFrom: d.pick(G5_ACCOUNT_TEAM_FROM),
    lockHours: d.pick(G5_LOCK_HOURS),
    recentHours: d.pick(G5_RECENT_HOURS),
    burstAttempts: d.pick(G5_BURST),
    windowHours,
    expiryMinutes,
  };
  const customer: Person = { ...person, tier: tier === 'vip' ? 'premium' : tier, mfaSince: person.mfaSince ?? new Date(clock).getUTCFullYear() - d.int(1, 3) };
  const timeline = inOrder(timelineOf5(d, kind, customer, clock, policy, version), clock);
  const urgent = urgencyOf(kind, timeline, customer.usual, policy, clock);
  const priority = priorityOf(urgent, seats >= policy.seatThreshold);
  const decision = policyDecisionOf(kind, timeline, customer.usual, policy);
  const wording = {
    subject: d.int(0, WORDING_SIZES.subject - 1),
    opener: d.int(0, WORDING_SIZES.opener - 1),
    middle: d.int(0, WORDING_SIZES.middle - 1),
    ask: d.int(0, WORDING_SIZES.ask - 1),
    mood: d.int(0, WORDING_SIZES.mood - 1),
    signOff: d.chance(1, 2),
  };
  const articleVariant = d.int(0, 1);
  // Version 6 draws its desk rota and tier note after everything version 5 draws.
  const desks = version === 6 ? (Object.fromEntries(TIERS.map((t) => [t, d.pick(DESK_TEAMS)])) as Record<CustomerTier, Team>) : undefined;
  const tierNote = version === 6 ? d.int(0, TIER_NOTE_PHRASINGS - 1) : undefined;
  const team: Team = contractValue >= policy.accountTeamFrom ? 'vip_concierge' : addendum ? ADDENDUM_TEAM : (decision.team ?? (desks ?? TIER_DESKS)[tier]);
  return { kind, tier, seats, contractValue, addendum, person: customer, policy, timeline, urgent, priority, decision, team, wording, articleVariant, ...(desks ? { version: 6 as const, desks, tierNote } : {}) };
}

export { samePlace };

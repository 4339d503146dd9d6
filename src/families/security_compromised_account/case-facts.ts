import { type CustomerTier, type Priority, type Team, type ResolutionCode, Draws } from '../kit';
import {
  FOREIGN,
  TRIPS,
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
  samePlace,
  takeoverTimeline,
  type Activity,
  type Person,
  type Place,
} from './facts';

/**
 * Generator version 4's case (issue 23, a low prior), drawn on top of version 3's instance for the same seed (its
 * customer, clock, distractors and ids stay version 3's; this file's draws use their own salt). Six kinds of account
 * case, each followed by its own policy article, which the customer words alike: only the account's event log read
 * against the usual sign-in locations in the contract notes, and the figures the knowledge base states for this
 * instance (how many failed sign-ins lock an account, the seat count that makes an account business-critical), tell
 * which, and set the priority.
 */

export const CASE_SALT = 0x5ec04;

export const CASE_KINDS = ['takeover', 'password_exposed', 'login_alert', 'blocked_attempts', 'lockout', 'forgotten_password'] as const;
export type G4Kind = (typeof CASE_KINDS)[number];

/** A sign-in attempt; a failed one failed at the password (`mfa` unset) or, the password right, at the MFA code. */
export type Attempt = Extract<Activity, { type: 'login' }>;

/** What each kind's policy sets before the triage article's adjustments (tier, business-critical seats, VIP routing). */
export const KIND_DECISIONS: Record<G4Kind, { priority: Priority; team: Team; code: ResolutionCode }> = {
  takeover: { priority: 'high', team: 'security_ops', code: 'security_escalation' },
  password_exposed: { priority: 'normal', team: 'security_ops', code: 'password_reset_sent' },
  login_alert: { priority: 'low', team: 'general_support', code: 'information_provided' },
  blocked_attempts: { priority: 'normal', team: 'technical_support', code: 'no_action_needed' },
  lockout: { priority: 'normal', team: 'technical_support', code: 'information_provided' },
  forgotten_password: { priority: 'low', team: 'general_support', code: 'password_reset_sent' },
};

/** The figures the knowledge base states for this instance; the first two change the decision, the rest the reply. */
export interface G4Policy {
  /** This many failed sign-ins in a row (since the last successful one) lock the account. */
  lockAfter: number;
  /** Accounts with this many seats or more are business-critical: one priority level up. */
  seatThreshold: number;
  /** Accounts whose annual contract is worth this many dollars or more belong to the account team. */
  accountTeamFrom: number;
  /** A lock lifts this many hours after the last failed sign-in. */
  lockHours: number;
  /** The takeover policy revokes API keys created this many hours before the clock (version 3's draw). */
  windowHours: number;
  /** A reset link stays valid this many minutes (version 3's draw). */
  expiryMinutes: number;
}

export interface G4Case {
  kind: G4Kind;
  tier: CustomerTier;
  seats: number;
  /** Dollars a year per seat: the plan's annual value is seats times this. */
  seatPrice: number;
  /** The customer, MFA enrolled (version 4's accounts all use it). */
  person: Person;
  policy: G4Policy;
  timeline: Activity[];
  priority: Priority;
  team: Team;
  /** How the customer words the ticket: indices into the message pools, drawn apart from the kind. */
  wording: { subject: number; opener: number; middle: number; ask: number; mood: number; signOff: boolean };
  articleVariant: number;
}

export const LOCK_AFTER = [3, 4, 5, 6, 8, 10];
export const SEAT_THRESHOLDS = [15, 25, 40, 60];
export const LOCK_HOURS = [2, 4, 6, 12, 24];
export const ACCOUNT_TEAM_FROM = [30000, 45000, 60000, 80000];
const SEAT_PRICES = [480, 720, 960, 1200];
const SEATS = [3, 5, 8, 10, 12, 14, 18, 20, 24, 28, 32, 36, 45, 50, 55, 70, 80, 95, 120, 150];
const PRIORITY_UP: Record<Priority, Priority> = { low: 'normal', normal: 'high', high: 'urgent', urgent: 'urgent' };

export const WORDING_SIZES = { subject: 6, opener: 5, middle: 4, ask: 4, mood: 4 };

/**
 * What happens on every account in the days before the case, whatever the kind: the customer's own sign-ins from
 * their usual places (the first from an address the account has not used, which emails a new sign-in alert), and
 * often a password change, a read-only API key, a scheduled export, a mistyped MFA code. None of it is news to them.
 */
export function background(d: Draws, person: Person, clock: number): Activity[] {
  const out: Activity[] = [];
  const first = hoursBefore(d, clock, d.int(150, 240));
  const i = d.int(0, person.usual.length - 1);
  const fresh: Attempt = { type: 'login', at: first, ip: ipAddress(d), place: person.usual[i], newDevice: false, success: true };
  out.push(fresh, alertFor(d, fresh));
  if (d.chance(2, 3)) out.push({ type: 'password_changed', at: later(d, first, 5, 60) });
  // Their own keys: read-only integrations, or a full-access deploy key named the way deploy keys are.
  if (d.chance(5, 6)) {
    const full = d.chance(1, 2);
    out.push({ type: 'api_key_created', at: later(d, first, 70, 120), name: full ? keyName(d) : d.pick(OWN_KEYS), access: full ? 'full' : 'read-only' });
  }
  // A new phone: MFA turned off and enrolled again on it, minutes apart.
  if (d.chance(1, 3)) {
    const off = later(d, first, 130, 200);
    out.push({ type: 'mfa_disabled', at: off }, { type: 'mfa_enabled', at: later(d, off, 2, 6) });
  }
  const second = hoursBefore(d, clock, d.int(70, 140));
  const j = d.int(0, person.usual.length - 1);
  if (d.chance(1, 3)) {
    // The customer mistyped their MFA code once, then got in.
    out.push({ type: 'login', at: second - d.int(2, 6) * MINUTE, ip: person.homeIps[j], place: person.usual[j], newDevice: false, success: false, mfa: true });
  }
  out.push({ type: 'login', at: second, ip: person.homeIps[j], place: person.usual[j], newDevice: false, success: true });
  if (d.chance(5, 6)) out.push({ type: 'export', at: later(d, second, 10, 40), records: d.int(900, 9800) });
  return out;
}

export function foreignPlace(d: Draws, person: Person): Place {
  return d.pick(FOREIGN.filter((p) => person.usual.every((u) => u.cc !== p.cc)));
}

/**
 * Failed sign-ins from somewhere the account has never seen, every one with a wrong password; nobody got in. The first
 * 1-30 hours before the clock, 2-8 attempts (versions 4 and 5; version 6 draws 1-40 hours and 3-10 attempts).
 */
export function blockedTimeline(d: Draws, person: Person, clock: number, hoursAgo: readonly [number, number] = [1, 30], counts: readonly [number, number] = [2, 8]): Activity[] {
  const place = foreignPlace(d, person);
  const ip = ipAddress(d);
  let at = hoursBefore(d, clock, d.int(hoursAgo[0], hoursAgo[1]));
  const out: Activity[] = [];
  const count = d.int(counts[0], counts[1]);
  for (let k = 0; k < count; k++) {
    out.push({ type: 'login', at, ip, place, newDevice: false, success: false });
    at = later(d, at, 0, 2);
  }
  if (d.chance(1, 2)) out.push(...ownLater(d, person, at, clock));
  return out;
}

/** The right password from somewhere the account has never seen, stopped only by the MFA code. */
export function exposedTimeline(d: Draws, person: Person, clock: number): Activity[] {
  const place = foreignPlace(d, person);
  const ip = ipAddress(d);
  let at = hoursBefore(d, clock, d.int(1, 30));
  const out: Activity[] = [];
  const wrong = d.pick([0, 0, 1, 2]);
  for (let k = 0; k < wrong; k++) {
    out.push({ type: 'login', at, ip, place, newDevice: false, success: false });
    at = later(d, at, 0, 2);
  }
  const stopped = d.int(1, 2);
  for (let k = 0; k < stopped; k++) {
    out.push({ type: 'login', at, ip, place, newDevice: false, success: false, mfa: true });
    at = later(d, at, 1, 3);
  }
  if (d.chance(1, 2)) out.push(...ownLater(d, person, at, clock));
  return out;
}

/** A sign-in of the customer's own from home, some time after (they noticed nothing). */
export function ownLater(d: Draws, person: Person, after: number, clock: number): Activity[] {
  const at = Math.min(clock - 10 * MINUTE, later(d, after, 30, 300));
  const i = d.int(0, person.usual.length - 1);
  return [{ type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: true }];
}

/** The customer's own failed sign-ins from a usual place, in a row, and half the time a reset they asked for. */
export function failedInARow(d: Draws, person: Person, clock: number, count: number, startMinutesBefore: number): Activity[] {
  const i = d.int(0, person.usual.length - 1);
  let at = clock - startMinutesBefore * MINUTE - d.int(0, 59) * 1000;
  const out: Activity[] = [];
  for (let k = 0; k < count; k++) {
    out.push({ type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: false });
    at = later(d, at, 0, 2);
  }
  if (d.chance(1, 2)) {
    const resetAt = Math.min(clock - 2 * MINUTE, later(d, at, 1, 3));
    out.push({ type: 'reset_requested', at: resetAt, ip: person.homeIps[i], place: person.usual[i] });
    out.push({ type: 'reset_email', at: resetAt + 2000, outcome: d.chance(1, 2) ? 'not_opened' : 'delivered' });
  }
  return out;
}

function timelineOf(d: Draws, kind: G4Kind, person: Person, clock: number, policy: G4Policy): Activity[] {
  const before = background(d, person, clock);
  switch (kind) {
    case 'takeover':
      return [...before, ...takeoverTimeline(d, person, clock, policy.windowHours)];
    case 'login_alert':
      return [...before, ...alertTimeline(d, person, clock)];
    case 'password_exposed':
      return [...before, ...exposedTimeline(d, person, clock)];
    case 'blocked_attempts':
      return [...before, ...blockedTimeline(d, person, clock)];
    case 'lockout': {
      // The lock is still on at the clock: the last failure less than the lock's hours ago.
      const count = d.int(policy.lockAfter, policy.lockAfter + 2);
      return [...before, ...failedInARow(d, person, clock, count, d.int(45, policy.lockHours * 60 - 15))];
    }
    case 'forgotten_password':
      return [...before, ...failedInARow(d, person, clock, d.int(1, policy.lockAfter - 1), d.int(45, 360))];
  }
}

/**
 * A sign-in of the customer's own that the account has not seen, with nothing changed after it: at home on a new
 * laptop, or on a trip (on a new device or their usual one); sometimes a sign-in of theirs after it. Versions 4 and 5
 * draw the sign-in 3-60 hours before the clock; version 6, 1-30 hours, as the blocked attempts and the exposed password.
 */
export function alertTimeline(d: Draws, person: Person, clock: number, hoursAgo: readonly [number, number] = [3, 60]): Activity[] {
  const travelling = d.chance(2, 3);
  const at = hoursBefore(d, clock, d.int(hoursAgo[0], hoursAgo[1]));
  const place = travelling ? d.pick(TRIPS.filter((p) => person.usual.every((u) => u.city !== p.city))) : person.usual[0];
  const login: Activity = { type: 'login', at, ip: travelling ? ipAddress(d) : person.homeIps[0], place, newDevice: travelling ? d.chance(1, 2) : true, success: true };
  const after: Activity[] = d.chance(1, 2) ? ownLater(d, person, at, clock) : [];
  return [login, alertFor(d, login), ...after];
}

/** Unrecognised: a new device, or a place that is not one of the usual locations. */
export function unrecognised(a: Attempt, usual: Place[]): boolean {
  return a.newDevice || !usual.some((u) => samePlace(u, a.place));
}

/**
 * The triage article's order: an unrecognised sign-in followed by a change; an unrecognised attempt with the right
 * password stopped by MFA; an unrecognised sign-in with nothing after it; unrecognised attempts that all failed;
 * else the failed sign-ins in a row since the last successful one against the lock threshold.
 */
export function classifyG4(timeline: Activity[], usual: Place[], lockAfter: number): G4Kind {
  const logins = timeline.filter((a): a is Attempt => a.type === 'login');
  const signIn = logins.find((a) => a.success && unrecognised(a, usual));
  if (signIn && timeline.some((a) => a.at > signIn.at && isChange(a))) return 'takeover';
  if (logins.some((a) => !a.success && a.mfa && unrecognised(a, usual))) return 'password_exposed';
  if (signIn) return 'login_alert';
  if (logins.some((a) => !a.success && unrecognised(a, usual))) return 'blocked_attempts';
  return failuresInARow(logins) >= lockAfter ? 'lockout' : 'forgotten_password';
}

/** Failed sign-ins since the last successful one. */
export function failuresInARow(logins: Attempt[]): number {
  let run = 0;
  for (const a of logins) run = a.success ? 0 : run + 1;
  return run;
}

export function drawG4Case(seed: number, person: Person, clock: number, windowHours: number, expiryMinutes: number): G4Case {
  const d = new Draws(seed, CASE_SALT);
  const kind = CASE_KINDS[d.int(0, CASE_KINDS.length - 1)];
  const tier: CustomerTier = d.pick(['standard', 'standard', 'premium', 'vip'] as const);
  const seats = d.pick(SEATS);
  const seatPrice = d.pick(SEAT_PRICES);
  const policy: G4Policy = { lockAfter: d.pick(LOCK_AFTER), seatThreshold: d.pick(SEAT_THRESHOLDS), accountTeamFrom: d.pick(ACCOUNT_TEAM_FROM), lockHours: d.pick(LOCK_HOURS), windowHours, expiryMinutes };
  const customer: Person = { ...person, tier: tier === 'vip' ? 'premium' : tier, mfaSince: person.mfaSince ?? new Date(clock).getUTCFullYear() - d.int(1, 3) };
  const timeline = inOrder(timelineOf(d, kind, customer, clock, policy), clock);
  const base = KIND_DECISIONS[kind];
  // A takeover's priority follows the incident and the account's size, not the support tier.
  const ups = (tier === 'standard' || kind === 'takeover' ? 0 : 1) + (seats >= policy.seatThreshold ? 1 : 0);
  let priority = base.priority;
  for (let k = 0; k < ups; k++) priority = PRIORITY_UP[priority];
  const wording = {
    subject: d.int(0, WORDING_SIZES.subject - 1),
    opener: d.int(0, WORDING_SIZES.opener - 1),
    middle: d.int(0, WORDING_SIZES.middle - 1),
    ask: d.int(0, WORDING_SIZES.ask - 1),
    mood: d.int(0, WORDING_SIZES.mood - 1),
    signOff: d.chance(1, 2),
  };
  const team: Team = seats * seatPrice >= policy.accountTeamFrom ? 'vip_concierge' : base.team;
  return { kind, tier, seats, seatPrice, person: customer, policy, timeline, priority, team, wording, articleVariant: d.int(0, 1) };
}

export { HOUR };

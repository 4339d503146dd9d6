import type { Draws } from '../kit';

/*
 * The facts of one security_compromised_account instance: who writes, where they usually sign in, and what the
 * account's event log shows. The case kind is drawn first and the timeline is built to show it; the answer key
 * then reads the kind back from the timeline (security-compromised-account-key.ts), so the events, not the draw,
 * are what the key rests on.
 */

export type CaseKind = 'takeover' | 'login_alert' | 'forgotten_password';
/** How the customer puts it, drawn apart from what happened: alarm, calm or confusion, whatever the case. */
export type Framing = 'hacked' | 'locked_out' | 'alert';

export interface Place {
  city: string;
  /** ISO country code, as the event log writes it. */
  cc: string;
  country: string;
}

export type Activity =
  // `mfa`: a failed sign-in that had the right password and failed at the MFA code (generator version 4 draws them).
  | { type: 'login'; at: number; ip: string; place: Place; newDevice: boolean; success: boolean; mfa?: boolean }
  | { type: 'alert_email'; at: number }
  | { type: 'password_changed'; at: number }
  | { type: 'mfa_disabled'; at: number }
  | { type: 'mfa_enabled'; at: number }
  | { type: 'api_key_created'; at: number; name: string; access: 'full' | 'read-only' }
  | { type: 'export'; at: number; records: number }
  | { type: 'reset_requested'; at: number; ip: string; place: Place }
  | { type: 'reset_email'; at: number; outcome: 'not_opened' | 'delivered' };

type Login = Extract<Activity, { type: 'login' }>;

export interface Person {
  first: string;
  last: string;
  tier: 'standard' | 'premium';
  account: string;
  usual: Place[];
  homeIps: string[];
  mfaSince: number | null;
}

export interface CaseFacts {
  kind: CaseKind;
  framing: Framing;
  customer: Person;
  timeline: Activity[];
}

export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export const HOMES: readonly Place[] = [
  { city: 'Lisbon', cc: 'PT', country: 'Portugal' },
  { city: 'Porto', cc: 'PT', country: 'Portugal' },
  { city: 'Oslo', cc: 'NO', country: 'Norway' },
  { city: 'Dublin', cc: 'IE', country: 'Ireland' },
  { city: 'Cork', cc: 'IE', country: 'Ireland' },
  { city: 'Lyon', cc: 'FR', country: 'France' },
  { city: 'Munich', cc: 'DE', country: 'Germany' },
  { city: 'Utrecht', cc: 'NL', country: 'the Netherlands' },
  { city: 'Gothenburg', cc: 'SE', country: 'Sweden' },
  { city: 'Leeds', cc: 'GB', country: 'the United Kingdom' },
  { city: 'Bristol', cc: 'GB', country: 'the United Kingdom' },
  { city: 'Valencia', cc: 'ES', country: 'Spain' },
  { city: 'Turin', cc: 'IT', country: 'Italy' },
  { city: 'Krakow', cc: 'PL', country: 'Poland' },
  { city: 'Ghent', cc: 'BE', country: 'Belgium' },
  { city: 'Tampere', cc: 'FI', country: 'Finland' },
  { city: 'Aarhus', cc: 'DK', country: 'Denmark' },
  { city: 'Graz', cc: 'AT', country: 'Austria' },
];

/** Where intruders' sign-ins come from: hosting providers and anonymising exits far from the customers. */
export const FOREIGN: readonly Place[] = [
  { city: 'Frankfurt', cc: 'DE', country: 'Germany' },
  { city: 'Bucharest', cc: 'RO', country: 'Romania' },
  { city: 'Singapore', cc: 'SG', country: 'Singapore' },
  { city: 'Sao Paulo', cc: 'BR', country: 'Brazil' },
  { city: 'Lagos', cc: 'NG', country: 'Nigeria' },
  { city: 'Hanoi', cc: 'VN', country: 'Vietnam' },
  { city: 'Chisinau', cc: 'MD', country: 'Moldova' },
  { city: 'Ashburn', cc: 'US', country: 'the United States' },
  { city: 'Jakarta', cc: 'ID', country: 'Indonesia' },
  { city: 'Istanbul', cc: 'TR', country: 'Turkey' },
  { city: 'Manila', cc: 'PH', country: 'the Philippines' },
  { city: 'Amsterdam', cc: 'NL', country: 'the Netherlands' },
];

/** Trips a customer takes: a sign-in from one of these is new to the account but theirs. */
export const TRIPS: readonly Place[] = [
  { city: 'Barcelona', cc: 'ES', country: 'Spain' },
  { city: 'Milan', cc: 'IT', country: 'Italy' },
  { city: 'Berlin', cc: 'DE', country: 'Germany' },
  { city: 'Copenhagen', cc: 'DK', country: 'Denmark' },
  { city: 'Vienna', cc: 'AT', country: 'Austria' },
  { city: 'Zurich', cc: 'CH', country: 'Switzerland' },
  { city: 'Edinburgh', cc: 'GB', country: 'the United Kingdom' },
  { city: 'Prague', cc: 'CZ', country: 'Czechia' },
  { city: 'New York', cc: 'US', country: 'the United States' },
  { city: 'Toronto', cc: 'CA', country: 'Canada' },
];

const KEY_PURPOSES = ['sync', 'deploy', 'ci', 'backup', 'etl', 'ops', 'data', 'mirror', 'bridge', 'automation'];
const KEY_SUFFIXES = ['prod', 'svc', 'runner', 'bot', 'main', 'job', 'worker', 'agent'];
export const OWN_KEYS = ['reporting-ro', 'zapier-crm', 'grafana-read', 'looker-sync', 'powerbi-feed', 'metabase-ro', 'sheets-export', 'hubspot-link'];

export function pickKind(draws: Draws): CaseKind {
  // Half takeovers, a quarter each of the two cases that look like one.
  const roll = draws.int(1, 4);
  return roll <= 2 ? 'takeover' : roll === 3 ? 'login_alert' : 'forgotten_password';
}

export function ipAddress(draws: Draws): string {
  return `${draws.int(31, 223)}.${draws.int(0, 255)}.${draws.int(0, 255)}.${draws.int(1, 254)}`;
}

export function drawPerson(draws: Draws, first: string, last: string, clock: number): Person {
  const tier = draws.chance(2, 5) ? 'premium' : 'standard';
  const account = `ACC-${draws.digits(5)}`;
  const usual = draws.sample(HOMES, draws.chance(1, 3) ? 2 : 1);
  const homeIps = usual.map(() => ipAddress(draws));
  const mfaSince = draws.chance(2, 3) ? new Date(clock).getUTCFullYear() - draws.int(1, 3) : null;
  return { first, last, tier, account, usual, homeIps, mfaSince };
}

/** A timestamp some hours before the clock, at a drawn second so event logs do not look synthetic. */
export function hoursBefore(draws: Draws, clock: number, hours: number): number {
  return clock - hours * HOUR - draws.int(0, 59) * MINUTE - draws.int(0, 59) * 1000;
}

export function later(draws: Draws, at: number, minMinutes: number, maxMinutes: number): number {
  return at + draws.int(minMinutes, maxMinutes) * MINUTE + draws.int(0, 59) * 1000;
}

function homeLogin(draws: Draws, person: Person, at: number, success = true): Activity {
  const i = draws.int(0, person.usual.length - 1);
  return { type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success };
}

/**
 * The new sign-in alert the account system emails the owner for a successful sign-in from a new device or from an
 * address the account has not used: usually within a minute, sometimes (a queued mail) well after what followed.
 */
export function alertFor(draws: Draws, login: { at: number }): Activity {
  const delay = draws.chance(2, 3) ? draws.int(8, 55) * 1000 : draws.int(2, 45) * MINUTE + draws.int(0, 59) * 1000;
  return { type: 'alert_email', at: login.at + delay };
}

/**
 * A sign-in of the customer's own: a usual location, a device the account knows. From their home address it sends
 * nothing; from an address the account has not used (mobile data, a new router) it sends the same new sign-in
 * alert as anyone's sign-in would, so an alert does not say whose sign-in it was: the place and the device do.
 */
export function ownSignIn(draws: Draws, person: Person, at: number): Activity[] {
  const i = draws.int(0, person.usual.length - 1);
  const fresh = draws.chance(2, 3);
  const login: Activity = { type: 'login', at, ip: fresh ? ipAddress(draws) : person.homeIps[i], place: person.usual[i], newDevice: false, success: true };
  return fresh ? [login, alertFor(draws, login)] : [login];
}

/** A change the customer made themselves a while after signing in: a new password or a read-only key. */
function ownChange(draws: Draws, at: number): Activity {
  return draws.chance(1, 2)
    ? { type: 'password_changed', at: later(draws, at, 5, 90) }
    : { type: 'api_key_created', at: later(draws, at, 5, 90), name: draws.pick(OWN_KEYS), access: 'read-only' };
}

export function keyName(draws: Draws): string {
  return `${draws.pick(KEY_PURPOSES)}-${draws.pick(KEY_SUFFIXES)}-${draws.int(2, 9)}`;
}

/**
 * The customer's own API key, created from a usual location some hours ago: inside or outside the takeover
 * policy's revocation window, so which keys are revoked depends on the window and the clock.
 */
function ownKey(draws: Draws, person: Person, clock: number, windowHours: number, loginHours: number): Activity[] {
  // Whole hours before the clock, kept two hours clear of the window's edge and of the intruder's sign-in.
  const hours = draws.chance(1, 2) ? draws.int(loginHours + 2, windowHours - 2) : draws.int(windowHours + 3, windowHours + 40);
  const signIn = ownSignIn(draws, person, hoursBefore(draws, clock, hours));
  return [...signIn, { type: 'api_key_created', at: later(draws, signIn[0].at, 2, 9), name: draws.pick(OWN_KEYS), access: 'read-only' }];
}

/**
 * A login from somewhere the account has never seen, followed by an intruder's changes (at least one). The
 * intruder's sign-in sends an alert like any new one, sometimes only after the changes; the customer's own earlier
 * sign-ins may have sent some too, and the intruder may sign in again from another address.
 */
export function takeoverTimeline(draws: Draws, person: Person, clock: number, windowHours: number): Activity[] {
  const foreign = draws.pick(FOREIGN.filter((p) => person.usual.every((u) => u.cc !== p.cc)));
  const loginHours = draws.int(2, 20);
  // Half the time the device is one the account knows (a stolen session), and only the country gives it away.
  const newDevice = draws.chance(1, 2);
  const login: Activity = {
    type: 'login',
    at: hoursBefore(draws, clock, loginHours),
    ip: ipAddress(draws),
    place: foreign,
    newDevice,
    success: true,
  };
  const own = draws.chance(1, 3) ? ownKey(draws, person, clock, windowHours, loginHours) : [];
  // Otherwise, half the time, an earlier sign-in of the customer's own in the days before.
  const earlier = own.length === 0 && draws.chance(1, 2) ? ownSignIn(draws, person, hoursBefore(draws, clock, draws.int(loginHours + 3, 120))) : [];
  const changes: Activity[] = [];
  let at = login.at;
  const passwordChanged = draws.chance(3, 4);
  if (passwordChanged) changes.push({ type: 'password_changed', at: (at = later(draws, at, 1, 4)) });
  if (person.mfaSince !== null && draws.chance(2, 3)) changes.push({ type: 'mfa_disabled', at: (at = later(draws, at, 1, 4)) });
  const keyCount = draws.pick([0, 1, 1, 2]);
  const names = new Set<string>();
  while (names.size < keyCount) names.add(keyName(draws));
  for (const name of names) changes.push({ type: 'api_key_created', at: (at = later(draws, at, 2, 9)), name, access: 'full' });
  if (draws.chance(1, 2) || changes.length === 0) changes.push({ type: 'export', at: (at = later(draws, at, 5, 20)), records: draws.int(900, 9800) });
  const alert = alertFor(draws, login);
  // A quarter of the time the intruder comes back from another address, which sends another alert.
  const back: Activity[] = [];
  if (draws.chance(1, 4)) {
    const again: Activity = { type: 'login', at: later(draws, at, 10, 90), ip: ipAddress(draws), place: foreign, newDevice, success: true };
    back.push(again, alertFor(draws, again));
  }
  // The customer's own attempts after the password changed under them, and half the time a reset they asked for
  // (which the intruder, reading their mail, may have kept from them).
  const attempts: Activity[] = [];
  if (passwordChanged) {
    const failed = homeLogin(draws, person, Math.min(clock - 10 * MINUTE, later(draws, at, 30, 300)), false) as Login;
    attempts.push(failed);
    if (draws.chance(1, 2)) {
      const resetAt = Math.min(clock - 5 * MINUTE, later(draws, failed.at, 1, 3));
      attempts.push({ type: 'reset_requested', at: resetAt, ip: failed.ip, place: failed.place });
      attempts.push({ type: 'reset_email', at: resetAt + 2000, outcome: draws.chance(1, 2) ? 'not_opened' : 'delivered' });
    }
  }
  return [...own, ...earlier, login, alert, ...changes, ...back, ...attempts];
}

/**
 * A new-device or new-place sign-in with nothing changed after it; often an older sign-in of the customer's own
 * (which may have sent an alert too) and a change they made in it, and sometimes a sign-in of theirs after it.
 */
export function loginAlertTimeline(draws: Draws, person: Person, clock: number): Activity[] {
  const earlier: Activity[] = [];
  if (draws.chance(7, 8)) {
    const signIn = ownSignIn(draws, person, hoursBefore(draws, clock, draws.int(70, 200)));
    earlier.push(...signIn);
    if (draws.chance(7, 8)) earlier.push(ownChange(draws, signIn[0].at));
  }
  // A trip, or a new laptop at home: either way a device the account has not seen.
  const travelling = draws.chance(1, 2);
  const at = hoursBefore(draws, clock, draws.int(3, 60));
  const place = travelling ? draws.pick(TRIPS.filter((p) => person.usual.every((u) => u.city !== p.city))) : person.usual[0];
  const login: Activity = { type: 'login', at, ip: travelling ? ipAddress(draws) : person.homeIps[0], place, newDevice: true, success: true };
  const after: Activity[] = draws.chance(1, 2) ? ownSignIn(draws, person, later(draws, at, 60, 180)) : [];
  return [...earlier, login, alertFor(draws, login), ...after];
}

/**
 * Only usual places: failed attempts and reset requests, mostly after sign-ins of the customer's own (which may
 * have sent alerts) and sometimes a change they made in the last of them.
 */
export function forgottenTimeline(draws: Draws, person: Person, clock: number): Activity[] {
  const earlier: Activity[] = [];
  // Telling the customer's own sign-ins from an intruder's takes the usual locations, alert or none.
  const signIns = draws.pick([1, 1, 2]);
  const hours = [draws.int(60, 140), draws.int(8, 50)].slice(2 - signIns);
  for (const h of hours) earlier.push(...ownSignIn(draws, person, hoursBefore(draws, clock, h)));
  if (draws.chance(3, 4)) earlier.push(ownChange(draws, Math.max(...earlier.map((a) => (a.type === 'login' ? a.at : 0)))));
  const first = hoursBefore(draws, clock, draws.int(1, 6));
  const fails = draws.int(1, 3);
  const attempts: Activity[] = [];
  let at = first;
  const i = draws.int(0, person.usual.length - 1);
  for (let k = 0; k < fails; k++) {
    attempts.push({ type: 'login', at, ip: person.homeIps[i], place: person.usual[i], newDevice: false, success: false });
    at = later(draws, at, 1, 3);
  }
  const reset: Activity = { type: 'reset_requested', at, ip: person.homeIps[i], place: person.usual[i] };
  const email: Activity = { type: 'reset_email', at: at + 2000, outcome: draws.chance(1, 2) ? 'not_opened' : 'delivered' };
  return [...earlier, ...attempts, reset, email];
}

/** A timeline as the event log shows it: in time order, and nothing after the clock. */
export function inOrder(timeline: Activity[], clock: number): Activity[] {
  return timeline.filter((a) => a.at < clock).sort((a, b) => a.at - b.at);
}

export function isChange(a: Activity): boolean {
  return a.type === 'password_changed' || a.type === 'mfa_disabled' || a.type === 'api_key_created' || a.type === 'export';
}

export function samePlace(a: Place, b: Place): boolean {
  return a.city === b.city && a.cc === b.cc;
}

import type { Ticket, Draws } from '../kit';
import { WEEKDAYS } from '../shared';
import { HOUR, isChange, type Activity, type CaseKind, type Framing, type Person, type Place } from './facts';
import { unrecognisedLogin } from './key';

/*
 * What the agent reads: the event log as the account system writes it, and the customer's message as a worried,
 * hurried or unbothered person writes it. The customer's words follow the framing, never the case.
 */


export function isoSeconds(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** "08:05". */
export function clockTime(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}

/** "4,812": digits grouped as the account system prints them (no locale lookup, so every machine agrees). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function where(place: Place): string {
  return `${place.city}, ${place.cc}`;
}

export function eventOf(a: Activity): Ticket['recent_events'][number] {
  const at = isoSeconds(a.at);
  switch (a.type) {
    case 'login':
      return a.success
        ? { at, kind: 'login', detail: `Successful login from ${a.newDevice ? 'new device, ' : ''}IP ${a.ip} (${where(a.place)})` }
        : { at, kind: 'login', detail: `Failed login from IP ${a.ip} (${where(a.place)}): wrong password` };
    case 'alert_email':
      return { at, kind: 'email', detail: 'New sign-in alert emailed to the account owner' };
    case 'password_changed':
      return { at, kind: 'auth', detail: 'Password changed' };
    case 'mfa_disabled':
      return { at, kind: 'auth', detail: 'MFA disabled' };
    case 'mfa_enabled':
      return { at, kind: 'auth', detail: 'MFA enabled on a new authenticator' };
    case 'api_key_created':
      return { at, kind: 'api', detail: `API key '${a.name}' created with ${a.access} access` };
    case 'export':
      return { at, kind: 'export', detail: `Export of ${grouped(a.records)} contact records started` };
    case 'reset_requested':
      return { at, kind: 'auth', detail: `Password reset requested from IP ${a.ip} (${where(a.place)})` };
    case 'reset_email':
      return { at, kind: 'email', detail: a.outcome === 'not_opened' ? 'Password reset email delivered; link not opened' : "Password reset email accepted by the recipient's mail server" };
  }
}

/** When something happened, as the customer would say it on the clock's day. */
function spokenWhen(at: number, clock: number): string {
  const day = (t: number) => Math.floor(t / (24 * HOUR));
  const hour = new Date(at).getUTCHours();
  const daysAgo = day(clock) - day(at);
  if (daysAgo === 0) return hour < 6 ? 'during the night' : hour < 12 ? 'this morning' : 'earlier today';
  if (daysAgo === 1) return hour >= 18 ? 'last night' : 'yesterday';
  return `on ${WEEKDAYS[new Date(at).getUTCDay()]}`;
}

/** Since when something has been going on, as the customer would say it: "since last night", "for a few hours". */
function spokenSince(at: number, clock: number): string {
  const when = spokenWhen(at, clock);
  if (when === 'earlier today') return 'for a few hours';
  if (when === 'during the night') return 'since the middle of the night';
  return `since ${when.replace(/^on /, '')}`;
}

/** What the customer saw of the intruder's changes, in their words (password, MFA and key changes send emails). */
function noticedChanges(changes: Activity[]): string[] {
  const seen: string[] = [];
  for (const a of changes) {
    if (a.type === 'password_changed') seen.push('my password was changed');
    else if (a.type === 'mfa_disabled') seen.push('two-factor login was turned off');
    else if (a.type === 'api_key_created' && a.access === 'full' && !seen.includes('a new API key was created')) seen.push('a new API key was created');
  }
  return seen;
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The framings a customer in this case could honestly write, given what the log shows. */
export function framingsFor(kind: CaseKind, timeline: Activity[]): Framing[] {
  const passwordChanged = timeline.some((a) => a.type === 'password_changed' && timeline.some((b) => b.type === 'login' && !b.success && b.at > a.at));
  if (kind === 'takeover') return passwordChanged ? ['hacked', 'hacked', 'locked_out', 'locked_out', 'alert'] : ['hacked', 'hacked', 'alert'];
  if (kind === 'login_alert') return ['hacked', 'hacked', 'alert'];
  return ['hacked', 'locked_out', 'locked_out'];
}

interface Message {
  subject: string;
  body: string;
}

/** The customer's ticket: subject and body in the framing's voice, consistent with the event log. */
export function customerMessage(draws: Draws, kind: CaseKind, framing: Framing, person: Person, timeline: Activity[], clock: number): Message {
  // The sign-in the customer was alerted about and did not recognise: their own sign-ins may have sent alerts too.
  const login = unrecognisedLogin(timeline, person.usual);
  const signOff = draws.chance(1, 2) ? ` ${person.first}` : '';
  if (framing === 'alert' && login) return alertMessage(draws, kind, login, person, timeline, clock, signOff);
  if (framing === 'locked_out') return lockedOutMessage(draws, kind, timeline, clock, signOff);
  return hackedMessage(draws, kind, login, timeline, clock, signOff);
}

function alertMessage(draws: Draws, kind: CaseKind, login: Extract<Activity, { type: 'login' }>, person: Person, timeline: Activity[], clock: number, signOff: string): Message {
  const subject = draws.pick(['New sign-in alert - was this me?', `Sign-in alert from ${login.place.city}`, `Login notification from ${login.place.city}`, 'Question about a sign-in email']);
  const home = person.usual.some((u) => u.city === login.place.city);
  const context = home
    ? draws.pick(["It says it's from here, but I don't remember using a new device.", 'I did set up a new laptop recently, but I am not sure it was that.'])
    : kind === 'login_alert'
      ? draws.pick(["I'm travelling for work at the moment, so it may have been me.", `I was in ${login.place.city} for a conference, I think, but I want to be sure.`])
      : draws.pick([`I have never been to ${login.place.country}.`, `I don't know anyone in ${login.place.city}.`]);
  const tail = kind === 'takeover' && timeline.some((a) => a.type === 'password_changed')
    ? ' Also my password does not seem to work any more, I probably mistyped it.'
    : '';
  // "Was that me?" only from someone who might have been there.
  const ask = draws.pick(['Probably nothing, but can you check?', 'Is that something I should worry about?', ...(kind === 'login_alert' ? ['Was that me?'] : [])]);
  return { subject, body: `I got a 'new sign-in' email ${spokenWhen(login.at, clock)} for a login from ${login.place.city}. ${context} ${ask}${tail}${signOff}` };
}

function lockedOutMessage(draws: Draws, kind: CaseKind, timeline: Activity[], clock: number, signOff: string): Message {
  const subject = draws.pick(["Can't log in - password not working", 'Locked out of my account', 'Password stopped working', 'Please send me a password reset link']);
  const firstFail = timeline.find((a) => a.type === 'login' && !a.success);
  const when = firstFail ? spokenWhen(firstFail.at, clock) : 'today';
  const ownChange = kind === 'forgotten_password' ? timeline.find((a) => a.type === 'password_changed') : undefined;
  const story =
    kind === 'forgotten_password'
      ? ownChange
        ? `I changed my password ${spokenWhen(ownChange.at, clock)} and now I can't remember the new one.`
        : `I can't remember my password and I've been locked out ${firstFail ? spokenSince(firstFail.at, clock) : 'all day'}.`
      : `My password stopped working ${when} and I can't get in. I haven't changed it.`;
  const resetSent = timeline.some((a) => a.type === 'reset_email');
  const ask = resetSent ? "I asked for a reset email but it isn't in my inbox. Can you send it again?" : 'Can you just send me a reset link?';
  const urgency = draws.pick(['', ' I need the dashboard before a client meeting.', ' Our month-end report is due today.']);
  return { subject, body: `${story} ${ask}${urgency}${signOff}` };
}

function hackedMessage(draws: Draws, kind: CaseKind, login: Extract<Activity, { type: 'login' }> | undefined, timeline: Activity[], clock: number, signOff: string): Message {
  // Only what followed the sign-in they were alerted to: their own older changes are no news to them.
  const after = kind === 'takeover' && login ? timeline.filter((a) => a.at > login.at && isChange(a)) : [];
  const changes = noticedChanges(after);
  const subjects = ['Has my account been hacked?', 'I think someone is in my account', 'Account hacked? Please help', 'Is my account compromised?'];
  if (changes.length > 0) subjects.push("Emails about changes I didn't make");
  const subject = draws.pick(subjects);
  const worry = draws.pick([
    "We keep our whole customer list in Northwind, so I'm really worried.",
    'Please lock everything down, I am panicking.',
    'Please help as fast as you can.',
  ]);
  let story: string;
  if (changes.length > 0) {
    const first = after[0];
    story = `At about ${clockTime(first.at)} UTC ${spokenWhen(first.at, clock)} I got ${changes.length === 1 ? 'an email' : 'emails'} saying ${listed(changes)}. I did none of that.`;
    if (timeline.some((a) => a.type === 'password_changed')) story += ' Now my password does not work.';
  } else if (kind === 'forgotten_password') {
    story = "My password isn't accepted any more and the reset email never came. Has someone hacked my account and changed it?";
  } else if (login) {
    story = `I got a 'new sign-in' email ${spokenWhen(login.at, clock)} for a login from ${login.place.city}. Has someone hacked my account?`;
  } else {
    story = 'Something strange is going on with my account and I think someone else has been using it.';
  }
  return { subject, body: `${story} ${worry}${signOff}` };
}

/** The contract notes the account carries: the support tier and where the customer usually signs in. */
export function contractNotes(person: Person): string[] {
  const notes: string[] = [];
  if (person.tier === 'premium') notes.push('Premium support: 4-hour first response target.');
  const places = person.usual.map(where).join(' and ');
  notes.push(`Usual sign-in locations: ${places}.${person.mfaSince === null ? '' : ` MFA was enrolled in ${person.mfaSince}.`}`);
  return notes;
}

import type { Article, Ticket } from '../kit';
import type { G4Case, G4Kind } from './case-facts';
import type { Activity, Place } from './facts';
import { priorityGuide, TOPIC_ARTICLES, type Topic } from './kb';
import { eventOf, isoSeconds } from './messages';
import { usd } from '../shared';

/**
 * Generator version 4's texts: the target ticket, worded by the customer from pools drawn apart from the case kind
 * (every kind's log holds a new sign-in alert, so "an email about my account" is true of each), and the knowledge
 * base: a triage article with this instance's figures, one policy article per kind, the priority guide and version
 * 3's topic articles. Which kind a case is shows only in the event log, read against the contract notes and the
 * triage article.
 */

const SUBJECTS = ['Is my account safe?', 'Question about my account', 'Please check my account', 'Security email about my account', 'Something odd with my account', 'Worried about my account'];
const OPENERS = [
  "I got one of your security emails about my account and I'm not sure what it means.",
  'Something odd is going on with my Northwind account.',
  "I'm worried about my account after an email I got from you.",
  'I had a notification from Northwind about my account and want to make sure everything is fine.',
  "I've had an email from your system about my account and I'd like someone to look at it.",
];
const MIDDLES = ['', "I can't tell whether it was something I did.", "I haven't shared my login with anyone.", "I don't really know what to look for in the settings."];
const ASKS = ['Can you check and tell me what I need to do?', 'Please look into it and let me know.', 'What should I do?', 'Could you check the account activity for me?'];
const MOODS = ['', "We keep our whole customer list in Northwind, so I'm worried.", 'Please treat this as urgent.', 'I need the dashboard for a client meeting today.'];

function where(place: Place): string {
  return `${place.city}, ${place.cc}`;
}

/** The event log line; a sign-in stopped at the MFA code says the password was right. */
export function eventG4(a: Activity): Ticket['recent_events'][number] {
  if (a.type === 'login' && !a.success && a.mfa) return { at: isoSeconds(a.at), kind: 'login', detail: `Failed login from IP ${a.ip} (${where(a.place)}): correct password, MFA code rejected` };
  return eventOf(a);
}

export function caseContractNotes(c: G4Case): string[] {
  const notes: string[] = [];
  if (c.tier === 'premium') notes.push('Premium support: 4-hour first response target.');
  if (c.tier === 'vip') notes.push('VIP support: 1-hour first response target.');
  notes.push(`Plan: Business, ${c.seats} seats at ${usd(c.seatPrice)} per seat a year.`);
  notes.push(`Usual sign-in locations: ${c.person.usual.map(where).join(' and ')}. MFA was enrolled in ${c.person.mfaSince}.`);
  return notes;
}

export function caseMessage(c: G4Case): { subject: string; body: string } {
  const w = c.wording;
  const body = [OPENERS[w.opener], MIDDLES[w.middle], ASKS[w.ask], MOODS[w.mood]].filter(Boolean).join(' ') + (w.signOff ? ` ${c.person.first}` : '');
  return { subject: SUBJECTS[w.subject], body };
}

export const TRIAGE_TITLE = 'Account access and sign-in activity: which policy applies';

export const KIND_TITLES: Record<G4Kind, string> = {
  takeover: 'Compromised account (suspected account takeover)',
  password_exposed: 'Password known to someone else (sign-in stopped at MFA)',
  login_alert: 'Suspicious login alerts with no account changes',
  blocked_attempts: 'Failed sign-in attempts from unfamiliar places',
  lockout: 'Accounts locked after repeated failed sign-ins',
  forgotten_password: 'Forgotten password and locked-out users',
};

export interface G4ArticleIds {
  triage: string;
  kinds: Record<G4Kind, string>;
  guide: string;
  topics: Record<Topic, string>;
}

export function caseKnowledgeBase(c: G4Case, ids: G4ArticleIds, topics: Topic[]): Article[] {
  return [
    { id: ids.triage, ...triageArticle(c) },
    ...(Object.keys(KIND_TITLES) as G4Kind[]).map((kind) => ({ id: ids.kinds[kind], title: KIND_TITLES[kind], body: kindBody(kind, c) })),
    { ...priorityGuide(ids.guide), body: `${priorityGuide(ids.guide).body} Where a policy article sets a priority, the article and the triage article's adjustments take precedence over these guidelines.` },
    ...topics.map((t) => TOPIC_ARTICLES[t](ids.topics[t])),
  ];
}

function triageArticle(c: G4Case): { title: string; body: string } {
  const p = c.policy;
  return {
    title: TRIAGE_TITLE,
    body:
      "When it applies: any ticket about a customer's account access or sign-in activity. Customers word every case alike (many fear they were hacked, whatever happened), so read the account's event log against the usual sign-in locations in the contract notes. " +
      'A sign-in or an attempt is unrecognised when it came from a new device or from a place that is not one of the usual locations. ' +
      'What to do: follow the first of these that applies. ' +
      '(1) An unrecognised successful sign-in followed by a password, MFA or API key change or a data export: the takeover policy. ' +
      '(2) An unrecognised attempt that had the right password and was stopped only by the MFA code: the policy for a password known to someone else. ' +
      '(3) An unrecognised successful sign-in with no change after it: the policy for sign-in alerts with no account changes. ' +
      '(4) Unrecognised attempts that all failed at the password: the policy for failed sign-in attempts from unfamiliar places. ' +
      `(5) Only the usual locations, and ${p.lockAfter} or more failed sign-ins in a row since the last successful one: the account has locked itself; follow the policy for accounts locked after repeated failed sign-ins. ` +
      `(6) Only the usual locations and fewer than ${p.lockAfter} failed sign-ins in a row: the forgotten-password policy. ` +
      `Priority: each policy sets one. Raise it one level for premium and VIP customers (the tier on the ticket), except in a takeover, where the incident sets it whatever the tier; and raise it one more level for business-critical accounts, those with ${p.seatThreshold} or more seats on the plan (this quarter's threshold), a takeover included: low becomes normal, normal becomes high, high becomes urgent, and urgent stays urgent. ` +
      `Accounts whose annual contract (seats times the price per seat) comes to ${usd(p.accountTeamFrom)} or more belong to the account team: route every such case to the vip_concierge team, whatever the policy names; the account team brings in security_ops itself. ` +
      'Exceptions: sign-ins from the usual locations on a known device are the customer\'s own, whatever alerts they sent.',
  };
}

function kindBody(kind: G4Kind, c: G4Case): string {
  const p = c.policy;
  const v = c.articleVariant;
  switch (kind) {
    case 'takeover':
      return (
        'When it applies: a successful sign-in from a device or place the account has not seen before, followed by a change the customer did not make: a new password, MFA disabled, API keys created, or a bulk data export. ' +
        'What to do: treat it as a security incident. Set the priority to high (the triage article raises it to urgent for a business-critical account) and route the ticket to the security_ops team. Do not send a password reset link, because the attacker may control the mailbox. Resolve the ticket as security_escalation. ' +
        `What to tell the customer, the containment steps: we have locked the account and signed out all active sessions; every API key created in the last ${p.windowHours} hours has been revoked, naming the keys the event log shows in that window (if it shows none created in that window, there was nothing to revoke); before access is restored we will verify their identity on a video call. ` +
        'Exceptions: none. A customer who asks for a reset link still gets the video verification.'
      );
    case 'password_exposed':
      return (
        'When it applies: a sign-in attempt from an unrecognised place or device had the right password and failed only at the MFA code: someone else knows the password, and MFA stopped them. ' +
        'What to do: sign out every active session and send a new password reset link to the email address on file, so the customer replaces the password. Do not lock the account or revoke API keys: nobody got in. ' +
        'MFA held and nobody got in, so set the priority to normal, and route the ticket to the security_ops team. Resolve the ticket as password_reset_sent. ' +
        `What to tell the customer: a new reset link has been sent, and it expires in ${p.expiryMinutes} minutes; and that they should change the password anywhere else they use it. ` +
        (v ? 'Exceptions: if anyone got in from that place, follow the takeover policy.' : 'Exceptions: an attempt that failed at the password is no sign the password is known.')
      );
    case 'login_alert':
      return (
        'When it applies: the customer received a new sign-in alert (a login from a new device or an unfamiliar place) and no password, MFA or API key change followed that sign-in. ' +
        "The account system also emails that alert for the customer's own sign-ins from an IP address it has not seen (mobile data, a new router), so an alert alone shows nothing. " +
        'What to do: nothing suggests anyone else has access, so do not lock the account or revoke API keys. Set the priority to low and route the ticket to the general_support team. Resolve the ticket as information_provided. ' +
        'What to tell the customer: when and where the new sign-in happened, from the event log; that all their active sessions are listed under Settings > Security; and that each session there has a Sign out button, so one they do not recognise can be signed out at once. ' +
        'Exceptions: if a change followed the sign-in, follow the takeover policy.'
      );
    case 'blocked_attempts':
      return (
        'When it applies: sign-in attempts from an unfamiliar place, every one of which failed at the password, and no successful sign-in from there. Password-guessing of this kind is blocked by the sign-in checks. ' +
        'What to do: nothing on the account needs changing: the password held, so do not reset it, lock the account or revoke API keys. Set the priority to normal and route the ticket to the technical_support team, which keeps the block lists of the sign-in checks. Resolve the ticket as no_action_needed. ' +
        'What to tell the customer: the date of the attempts, from the event log; that every one of them was blocked; and that they can review their active sessions under Settings > Security. ' +
        'Exceptions: an attempt with the right password that failed at the MFA code means the password is known.'
      );
    case 'lockout':
      return (
        `When it applies: the customer's own failed sign-ins from their usual locations reached the lock threshold (the triage article's), and the account locked itself. ` +
        `What to do: the lock lifts by itself ${p.lockHours} hours after the last failed sign-in, and a reset link does not lift it, so send none. Set the priority to normal and route the ticket to the technical_support team. Resolve the ticket as information_provided. ` +
        `What to tell the customer: the account is locked after too many failed sign-ins, and the lock lifts ${p.lockHours} hours after the last failed attempt, when they can sign in again or ask for a reset. ` +
        'Exceptions: failed sign-ins from an unfamiliar place follow their own policy.'
      );
    case 'forgotten_password':
      return (
        "When it applies: the customer forgot their password, cannot sign in, or did not receive a reset email, and the login history shows only the customer's usual locations, with fewer failed sign-ins in a row than lock the account. " +
        'What to do: send a new password reset link to the email address on file. Do not lock the account or revoke API keys for a forgotten password. Set the priority to low and route the ticket to the general_support team. Resolve the ticket as password_reset_sent. ' +
        `What to tell the customer: a new reset link has been sent; it expires in ${p.expiryMinutes} minutes; reset emails are sometimes filtered, so they should check their spam folder. ` +
        'Exceptions: an account locked after failed sign-ins follows its own policy.'
      );
  }
}

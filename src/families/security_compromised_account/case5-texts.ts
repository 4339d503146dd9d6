import type { Article } from '../kit';
import { usd } from '../shared';
import { ADDENDUM_TEAM, BURST_DECISION, G5_DECISIONS, TIER_DESKS, type G5Case, type G5Kind } from './case5-facts';
import type { Place } from './facts';
import { priorityGuide, TOPIC_ARTICLES, type Topic } from './kb';

/**
 * Generator version 5's knowledge base and contract notes. The customer's message and the event lines are version
 * 4's (case-texts.ts). The triage article names the policy for each kind, in order, and sets the priority from the
 * case's urgency and the account's impact, and the routing, from this instance's figures; each policy article says
 * what to do, the team and the resolution, and what to tell the customer.
 */

function where(place: Place): string {
  return `${place.city}, ${place.cc}`;
}

/**
 * Generator version 6's support-tier note, in one of several wordings, for every tier (version 5 wrote one only for
 * premium and VIP, so its words marked them).
 */
const TIER_NOTES: Record<G5Case['tier'], string[]> = {
  standard: [
    'Standard support: next-business-day first response target.',
    'Support tier: standard (response within one business day).',
    'Standard support plan; replies on business days.',
    'Support: standard tier, business-hours coverage.',
  ],
  premium: [
    'Premium support: 4-hour first response target.',
    'Support tier: premium (response within 4 hours).',
    'Premium support plan; replies around the clock.',
    'Support: premium tier, 24/7 coverage.',
  ],
  vip: [
    'VIP support: 1-hour first response target.',
    'Support tier: VIP (response within 1 hour).',
    'VIP support plan; replies around the clock.',
    'Support: VIP tier, 24/7 coverage.',
  ],
};

export function case5ContractNotes(c: G5Case): string[] {
  const notes: string[] = [];
  if (c.tierNote !== undefined) notes.push(TIER_NOTES[c.tier][c.tierNote]);
  else if (c.tier === 'premium') notes.push('Premium support: 4-hour first response target.');
  else if (c.tier === 'vip') notes.push('VIP support: 1-hour first response target.');
  notes.push(`Plan: Business, ${c.seats} seats; annual contract value ${usd(c.contractValue)}.`);
  if (c.addendum) notes.push('Security Assurance addendum signed: account-security cases are handled under the addendum.');
  notes.push(`Usual sign-in locations: ${c.person.usual.map(where).join(' and ')}. MFA was enrolled in ${c.person.mfaSince}.`);
  return notes;
}

export const TRIAGE5_TITLE = 'Account access and sign-in activity: which policy applies, priority and routing';

export const KIND5_TITLES: Record<G5Kind, string> = {
  takeover_export: 'Compromised account: data exported by the intruder',
  takeover_keys: 'Compromised account: API keys created by the intruder',
  takeover_credentials: 'Compromised account: password or MFA changed by the intruder',
  password_exposed: 'Password known to someone else (sign-in stopped at MFA)',
  login_alert: 'Suspicious login alerts with no account changes',
  blocked_attempts: 'Failed sign-in attempts from unfamiliar places',
  mfa_trouble: 'Customer cannot pass the MFA step (code not accepted)',
  lockout: 'Accounts locked after repeated failed sign-ins',
  forgotten_password: 'Forgotten password and locked-out users',
};

export interface G5ArticleIds {
  triage: string;
  kinds: Record<G5Kind, string>;
  guide: string;
  topics: Record<Topic, string>;
}

export function case5KnowledgeBase(c: G5Case, ids: G5ArticleIds, topics: Topic[]): Article[] {
  return [
    { id: ids.triage, title: TRIAGE5_TITLE, body: triageBody(c) },
    ...(Object.keys(KIND5_TITLES) as G5Kind[]).map((kind) => ({ id: ids.kinds[kind], title: KIND5_TITLES[kind], body: kindBody(kind, c) })),
    { ...priorityGuide(ids.guide), body: `${priorityGuide(ids.guide).body} For account access and sign-in cases, the triage article's urgency and impact table takes precedence over these guidelines.` },
    ...topics.map((t) => TOPIC_ARTICLES[t](ids.topics[t])),
  ];
}

function triageBody(c: G5Case): string {
  const p = c.policy;
  return (
    "When it applies: any ticket about a customer's account access or sign-in activity. Customers word every case alike (many fear they were hacked, whatever happened), so read the account's event log against the usual sign-in locations in the contract notes. " +
    'A sign-in or an attempt is unrecognised when it came from a new device or from a place that is not one of the usual locations. ' +
    'Which policy: follow the first of these that applies. ' +
    '(1) An unrecognised successful sign-in followed by a data export: the policy for a compromised account with data exported. ' +
    '(2) An unrecognised successful sign-in followed by an API key created (and no export): the policy for a compromised account with API keys created. ' +
    '(3) An unrecognised successful sign-in followed by a password or MFA change only: the policy for a compromised account with the password or MFA changed. ' +
    '(4) An unrecognised attempt that had the right password and was stopped only by the MFA code: the policy for a password known to someone else. ' +
    '(5) An unrecognised successful sign-in with no change after it: the policy for sign-in alerts with no account changes. ' +
    '(6) Unrecognised attempts that all failed at the password: the policy for failed sign-in attempts from unfamiliar places. ' +
    '(7) Only the usual locations, and since the last successful sign-in an attempt with the right password stopped at the MFA code: the policy for customers who cannot pass the MFA step. ' +
    `(8) Only the usual locations, and ${p.lockAfter} or more failed sign-ins in a row since the last successful one: the account has locked itself; follow the policy for accounts locked after repeated failed sign-ins. ` +
    `(9) Only the usual locations and fewer than ${p.lockAfter} failed sign-ins in a row: the forgotten-password policy. ` +
    'Priority: set it from the urgency of the case and the impact on the account, whatever the customer\'s tier. ' +
    `Urgency is high for every compromised account; for a password known to someone else when the MFA code was tried two times or more; for a sign-in alert when the unrecognised sign-in was less than ${p.recentHours} hours ago; for failed attempts from an unfamiliar place when the last of them was less than ${p.recentHours} hours ago; for a customer who cannot pass the MFA step when their last rejected code was less than ${p.recentHours} hours ago; and for a locked account or a forgotten password when the customer has already asked for a password reset since their last successful sign-in. Otherwise urgency is normal. ` +
    `Impact is high for business-critical accounts, those with ${p.seatThreshold} or more seats on the plan (this quarter's threshold), and standard otherwise. ` +
    'High urgency and high impact: urgent. High urgency, standard impact: high. Normal urgency, high impact: normal. Normal urgency, standard impact: low. ' +
    `Routing: accounts whose annual contract value (in the contract notes) is ${usd(p.accountTeamFrom)} or more belong to the account team: route every such case to the vip_concierge team, whatever the policy names. ` +
    `Otherwise, accounts with the Security Assurance addendum in their contract notes have every account access case handled by the ${ADDENDUM_TEAM} team. Otherwise route the ticket to the team the policy names; a policy that names no team of its own sends the case to the support-tier desk: ${deskLine(c)} ` +
    "Exceptions: sign-ins from the usual locations on a known device are the customer's own, whatever alerts they sent."
  );
}

/** Which desk takes each tier: version 5's fixed desks, or version 6's rota for this instance. */
function deskLine(c: G5Case): string {
  if (!c.desks) return `standard-tier customers to the ${TIER_DESKS.standard} team, premium and VIP customers (a response target in their contract notes) to the ${TIER_DESKS.premium} team.`;
  return `this quarter's desk rota sends standard-tier customers to the ${c.desks.standard} team, premium-tier customers to the ${c.desks.premium} team and VIP-tier customers to the ${c.desks.vip} team (the tier is the customer's, as the ticket shows it).`;
}

const TEAM_LINE = (kind: G5Kind) => teamLine(G5_DECISIONS[kind].team);
const teamLine = (team: string | null) =>
  team ? `Route the ticket to the ${team} team unless the triage article's routing says otherwise; the priority is the triage article's.` : "Route the ticket to the support-tier desk the triage article names; its routing and priority apply.";

function kindBody(kind: G5Kind, c: G5Case): string {
  const p = c.policy;
  const v = c.articleVariant;
  switch (kind) {
    case 'takeover_export':
      return (
        'When it applies: a successful sign-in from a device or place the account has not seen before, followed by a bulk data export the customer did not start (whatever else changed). ' +
        `What to do: treat it as a security incident with possible data exposure. Lock the account, sign out all active sessions and cancel the export's download link so the file can no longer be fetched. ${TEAM_LINE(kind)} Do not send a password reset link, because the attacker may control the mailbox. Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        "What to tell the customer: we have locked the account and signed out all active sessions; we have cancelled the export's download link; before access is restored we will verify their identity on a video call. " +
        'Exceptions: an export the customer started from a usual location is their own.'
      );
    case 'takeover_keys':
      return (
        'When it applies: a successful sign-in from a device or place the account has not seen before, followed by one or more API keys created, and no data export. ' +
        `What to do: treat it as a security incident. Lock the account, sign out all active sessions and revoke every API key created in the last ${p.windowHours} hours, the customer's own included (they can create new ones once access is restored). ${TEAM_LINE(kind)} Do not send a password reset link, because the attacker may control the mailbox. Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        `What to tell the customer: we have locked the account and signed out all active sessions; every API key created in the last ${p.windowHours} hours has been revoked, naming the keys the event log shows in that window; before access is restored we will verify their identity on a video call. ` +
        (v ? 'Exceptions: if data was exported as well, follow the policy for a compromised account with data exported.' : 'Exceptions: none.')
      );
    case 'takeover_credentials':
      return (
        'When it applies: a successful sign-in from a device or place the account has not seen before, followed by a password change or MFA being turned off, and no API key or export. ' +
        `What to do: treat it as a security incident. Lock the account and sign out all active sessions. ${TEAM_LINE(kind)} Do not send a password reset link, because the attacker may control the mailbox. Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        'What to tell the customer: we have locked the account and signed out all active sessions; before access is restored we will verify their identity on a video call; and on that call we will turn MFA back on with them, on their own device. ' +
        'Exceptions: a password or MFA change made from a usual location is the customer\'s own.'
      );
    case 'password_exposed':
      return (
        'When it applies: a sign-in attempt from an unrecognised place or device had the right password and failed only at the MFA code: someone else knows the password, and MFA stopped them. ' +
        `What to do: sign out every active session and send a new password reset link to the email address on file, so the customer replaces the password. Do not lock the account or revoke API keys: nobody got in. ${TEAM_LINE(kind)} Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        `What to tell the customer: a new reset link has been sent, and it expires in ${p.expiryMinutes} minutes; and that they should change the password anywhere else they use it. ` +
        (v ? 'Exceptions: if anyone got in from that place, follow a compromised-account policy.' : 'Exceptions: an attempt that failed at the password is no sign the password is known.')
      );
    case 'login_alert':
      return (
        'When it applies: the customer received a new sign-in alert (a login from a new device or an unfamiliar place) and no password, MFA or API key change or export followed that sign-in. ' +
        "The account system also emails that alert for the customer's own sign-ins from an IP address it has not seen (mobile data, a new router), so an alert alone shows nothing. " +
        `What to do: nothing suggests anyone else has access, so do not lock the account or revoke API keys. ${TEAM_LINE(kind)} Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        'What to tell the customer: when and where the new sign-in happened, from the event log; that all their active sessions are listed under Settings > Security; and that each session there has a Sign out button, so one they do not recognise can be signed out at once. ' +
        'Exceptions: if a change followed the sign-in, follow a compromised-account policy.'
      );
    case 'blocked_attempts':
      return (
        'When it applies: sign-in attempts from an unfamiliar place, every one of which failed at the password, and no successful sign-in from there. Password-guessing of this kind is blocked by the sign-in checks. ' +
        `What to do: nothing on the account needs changing: the password held, so do not reset it, lock the account or revoke API keys. With ${p.burstAttempts} or more attempts (this quarter's burst size) it is a password-guessing run: escalate it, so that the address is blocked for good, and resolve the ticket as ${BURST_DECISION.code}. With fewer, the sign-in checks have dealt with it: resolve the ticket as ${G5_DECISIONS[kind].code}. Either way, route the ticket to the support-tier desk the triage article names; its routing and priority apply. ` +
        'What to tell the customer: the date of the attempts, from the event log; that every one of them was blocked; and that they can review their active sessions under Settings > Security. ' +
        'Exceptions: an attempt with the right password that failed at the MFA code means the password is known.'
      );
    case 'mfa_trouble':
      return (
        "When it applies: the customer's own sign-ins from a usual location had the right password and were stopped at the MFA code, usually after a new phone or a reinstalled authenticator app. Nobody else is involved. " +
        `What to do: do not send a password reset link (the password is not the problem), and do not turn MFA off on a ticket's say-so. ${TEAM_LINE(kind)} Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        'What to tell the customer: they can sign in with one of the backup codes they saved when they enrolled MFA, and then set up the authenticator again; and that support removes MFA only after verifying their identity on a video call. ' +
        'Exceptions: MFA codes rejected from an unfamiliar place mean the password is known to someone else.'
      );
    case 'lockout':
      return (
        "When it applies: the customer's own failed sign-ins from their usual locations reached the lock threshold (the triage article's), and the account locked itself. " +
        `What to do: the lock lifts by itself ${p.lockHours} hours after the last failed sign-in, and a reset link does not lift it, so send none. ${TEAM_LINE(kind)} Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        `What to tell the customer: the account is locked after too many failed sign-ins, and the lock lifts ${p.lockHours} hours after the last failed attempt, when they can sign in again or ask for a reset. ` +
        'Exceptions: failed sign-ins from an unfamiliar place follow their own policy.'
      );
    case 'forgotten_password':
      return (
        "When it applies: the customer forgot their password, cannot sign in, or did not receive a reset email, and the login history shows only the customer's usual locations, with fewer failed sign-ins in a row than lock the account. " +
        `What to do: send a new password reset link to the email address on file. Do not lock the account or revoke API keys for a forgotten password. ${TEAM_LINE(kind)} Resolve the ticket as ${G5_DECISIONS[kind].code}. ` +
        `What to tell the customer: a new reset link has been sent; it expires in ${p.expiryMinutes} minutes; reset emails are sometimes filtered, so they should check their spam folder. ` +
        'Exceptions: an account locked after failed sign-ins follows its own policy.'
      );
  }
}

import type { Article, Draws } from '../kit';

/*
 * The knowledge base: the three account policies, always all present since each is the others' near miss, the
 * priority guide, and articles for the other tickets' topics. The policies state their decisions in the runbook
 * phrasings agents are told to look for ("Set the priority to ...", "route the ticket to the ... team",
 * "Resolve the ticket as ...").
 */

export interface PolicyIds {
  takeover: string;
  loginAlert: string;
  forgotten: string;
}

export interface PolicyParameters {
  /** API keys created this many hours before the clock are revoked in a takeover. */
  windowHours: number;
  /** A password reset link stays valid this many minutes. */
  expiryMinutes: number;
}

export function takeoverArticle(id: string, windowHours: number): Article {
  return {
    id,
    title: 'Compromised account (suspected account takeover)',
    body:
      'When it applies: signs that someone other than the customer controls the account, whatever the customer thinks happened (many say they were hacked, some only ask for a reset link): a successful login from a device or country the account has not seen before, followed by a change the customer did not make, such as a new password, MFA disabled, API keys created, or a bulk data export. ' +
      'What to do: treat it as a security incident. Set the priority to urgent and route the ticket to the security_ops team. Do not send a password reset link, because the attacker may control the mailbox. Resolve the ticket as security_escalation. ' +
      `What to tell the customer, the containment steps: we have locked the account and signed out all active sessions; every API key created in the last ${windowHours} hours has been revoked, naming the keys the event log shows in that window (if it shows none created in that window, there was nothing to revoke); before access is restored we will verify their identity on a video call. Ask the customer never to send passwords by email. ` +
      'Exceptions: none. A customer who is locked out and asks for a reset link still gets the video verification.',
  };
}

export function loginAlertArticle(id: string, takeoverId: string): Article {
  return {
    id,
    title: 'Suspicious login alerts with no account changes',
    body:
      'When it applies: the customer received a new sign-in alert (a login from a new device or an unfamiliar place) and no password, MFA or API key change followed that sign-in. ' +
      "The account system also emails that alert for the customer's own sign-ins from an IP address it has not seen (mobile data, a new router), so an alert alone shows nothing: what counts is a sign-in from a new device or from a place that is not one of the usual ones. " +
      "What to do: compare the sign-in with the customer's usual locations, travel and new devices. Nothing suggests anyone else has access, so do not lock the account or revoke API keys. Set the priority to normal and route the ticket to the general_support team. Resolve the ticket as information_provided. " +
      'What to tell the customer: when and where the new sign-in happened, from the event log; that all their active sessions are listed under Settings > Security; and that each session there has a Sign out button, so one they do not recognise can be signed out at once, after which they should change their password. ' +
      `Exceptions: if a password, MFA or API key change followed the sign-in, treat it as a suspected takeover under ${takeoverId}.`,
  };
}

export function forgottenArticle(id: string, takeoverId: string, expiryMinutes: number): Article {
  return {
    id,
    title: 'Forgotten password and locked-out users',
    body:
      "When it applies: the customer forgot their password, cannot sign in, or did not receive a reset email, and the login history shows only the customer's usual locations. " +
      'What to do: send a new password reset link to the email address on file. Do not lock the account or revoke API keys for a forgotten password. Set the priority to normal and route the ticket to the general_support team. Resolve the ticket as password_reset_sent. ' +
      `What to tell the customer: a new reset link has been sent; it expires in ${expiryMinutes} minutes; reset emails are sometimes filtered, so they should check their spam folder. ` +
      `Exceptions: if the history shows a sign-in from an unrecognised device or country followed by account changes, send no link and follow ${takeoverId}.`,
  };
}

export function priorityGuide(id: string): Article {
  return {
    id,
    title: 'Ticket priority guidelines',
    body: 'Low: questions and requests with no impact. Normal: issues that do not block work or cost the customer money. High: the customer is blocked or out of pocket because of us. Urgent: security incidents, data exposure, and contractual deadlines we are about to miss.',
  };
}

/** Articles for the other tickets' topics: what the inbox's bystanders would need, and noise for the account queries. */
export const TOPIC_ARTICLES = {
  sms: (id: string): Article => ({
    id,
    title: 'Two-factor codes by SMS not arriving',
    body: 'When SMS codes fail, check the SMS provider status. Route to technical_support. Customers can switch to an authenticator app or use backup codes meanwhile. Priority normal.',
  }),
  apiKeys: (id: string): Article => ({
    id,
    title: 'API key management',
    body: "Customers can create, rotate and revoke API keys under Settings > API. Keys with full access should be rotated every 90 days. Support cannot see a key's secret once created.",
  }),
  billingAddress: (id: string): Article => ({
    id,
    title: 'Changing the billing address',
    body: 'Billing addresses can be changed by the account owner under Billing settings, or by billing on request. The new address applies from the next invoice. Priority low.',
  }),
  invoiceCopy: (id: string): Article => ({
    id,
    title: 'Invoice copies',
    body: 'Account owners can download every invoice as a PDF under Billing > Invoices. Billing can email a copy on request. Priority low, route to billing.',
  }),
  seats: (id: string): Article => ({
    id,
    title: 'Adding seats to a plan',
    body: 'Seats can be added at any time under Billing > Plan; the charge is prorated to the renewal date. Priority low, route to billing.',
  }),
  retention: (id: string): Article => ({
    id,
    title: 'Data retention',
    body: 'Deleted projects are kept for 30 days and can be restored by support; after that they are purged. Audit logs are kept for 12 months.',
  }),
} as const;

export type Topic = keyof typeof TOPIC_ARTICLES;

/** Article ids for one instance: drawn numbers in each prefix's range, all distinct. */
export function articleIds(draws: Draws): PolicyIds & { guide: string; topics: Record<Topic, string> } {
  const security = draws.sample(Array.from({ length: 90 }, (_, i) => 301 + i), 4);
  const account = draws.int(101, 189);
  const billing = draws.sample(Array.from({ length: 60 }, (_, i) => 110 + i), 3);
  return {
    takeover: `KB-SEC-${security[0]}`,
    loginAlert: `KB-SEC-${security[1]}`,
    forgotten: `KB-ACC-${account}`,
    guide: `KB-GEN-00${draws.int(1, 9)}`,
    topics: {
      sms: `KB-SEC-${security[2]}`,
      apiKeys: `KB-SEC-${security[3]}`,
      billingAddress: `KB-BIL-${billing[0]}`,
      invoiceCopy: `KB-BIL-${billing[1]}`,
      seats: `KB-BIL-${billing[2]}`,
      retention: `KB-GEN-${draws.int(200, 299)}`,
    },
  };
}

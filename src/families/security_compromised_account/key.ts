import type { ReplyClaim, ForbiddenStatement, Task } from '../kit';
import { HOUR, isChange, samePlace, type Activity, type CaseKind, type Place } from './facts';
import type { PolicyIds, PolicyParameters } from './kb';

/*
 * The family's policy logic: the case kind read from the event log against the customer's usual locations, and
 * the answer key each policy gives for it. Nothing here is per instance; every value comes from the facts.
 */

type Login = Extract<Activity, { type: 'login' }>;

/** The first successful sign-in from a new device or from a place that is not one of the customer's usual ones. */
export function unrecognisedLogin(timeline: Activity[], usual: Place[]): Login | undefined {
  return timeline.find((a): a is Login => a.type === 'login' && a.success && (a.newDevice || !usual.some((u) => samePlace(u, a.place))));
}

/**
 * KB takeover: an unrecognised sign-in followed by a change. KB login alert: an unrecognised sign-in with no
 * change after it. KB forgotten password: only usual places in the history.
 */
export function classify(timeline: Activity[], usual: Place[]): CaseKind {
  const login = unrecognisedLogin(timeline, usual);
  if (!login) return 'forgotten_password';
  return timeline.some((a) => a.at > login.at && isChange(a)) ? 'takeover' : 'login_alert';
}

/** Keys the takeover policy revokes: every key created within its window before the clock. */
export function keysInWindow(timeline: Activity[], clock: number, windowHours: number): string[] {
  return timeline.flatMap((a) => (a.type === 'api_key_created' && a.at >= clock - windowHours * HOUR ? [a.name] : []));
}

// Declarations are built fresh for every instance (functions, not shared constants), so no two tasks share an array.
const revokeVerbs = () => ['revoke', 'disable', 'deactivate', 'delete', 'invalidate', 'cancel', 'kill', 'remove'];

/** The ways a window of hours is said: "48 hours", "48h", "48-hour", "two days". */
function windowPhrases(hours: number): string[] {
  const days = hours / 24;
  const word = ['', 'one', 'two', 'three'][days];
  const dayPhrases = days === 1 ? ['one day', '1 day', 'last day', 'past day'] : [`${word} days`, `${days} days`];
  return [`${hours} hours`, `${hours}h`, `${hours}-hour`, ...dayPhrases];
}

export function takeoverClaims(windowHours: number, keys: string[]): ReplyClaim[] {
  return [
    { id: 'account_locked', description: 'the account is locked', kind: 'action', verbs: ['lock', 'freeze', 'suspend', 'disable', 'block'], objects: ['account'] },
    {
      id: 'sessions_signed_out',
      description: 'all active sessions are signed out',
      kind: 'action',
      verbs: ['sign out', 'log out', 'end', 'terminate', 'close', 'kill', 'revoke', 'invalidate'],
      objects: ['session', 'device', 'everyone', 'everybody'],
      qualifiers: ['all', 'every', 'everyone', 'each'],
    },
    // Revocation is told only when the window holds keys: with none created in it there was nothing to revoke, and
    // a reply saying so honestly must not lose credit.
    ...(keys.length === 0
      ? []
      : [
          {
            id: 'api_keys_revoked',
            description: `every API key created in the last ${windowHours} hours is revoked`,
            kind: 'action',
            verbs: revokeVerbs(),
            objects: ['api key', 'key', ...keys],
            qualifiers: windowPhrases(windowHours),
          } satisfies ReplyClaim,
          // One claim for the named keys, met by any of them stated revoked: a second name in a long sentence
          // ("..., including a and b") can sit beyond the distance the engine allows between a verb and its object.
          {
            id: 'named_keys_revoked',
            description: `the API keys created within the last ${windowHours} hours are named as revoked: ${keys.join(', ')}`,
            kind: 'action',
            verbs: revokeVerbs(),
            objects: keys,
          } satisfies ReplyClaim,
        ]),
    {
      id: 'identity_verification',
      description: 'access is restored only after identity verification on a video call, not through a reset link',
      kind: 'action',
      verbs: ['verify', 'confirm', 'check'],
      objects: ['identity', 'really you', 'who you are', "it's you", 'it is you', "it's really you", 'account holder', 'account owner'],
      qualifiers: ['video', 'video call', 'video chat', 'videocall'],
    },
  ];
}

export const SIGN_IN_WORDS = ['sign-in', 'sign-ins', 'login', 'logins', 'log-in', 'signed in', 'logged in', 'sign in', 'log in'];

export function loginAlertClaims(login: Login): ReplyClaim[] {
  return [
    {
      id: 'sign_in_date',
      description: `the new sign-in happened on ${new Date(login.at).toISOString().slice(0, 10)} from ${login.place.city}`,
      kind: 'date',
      date: new Date(login.at).toISOString().slice(0, 10),
      about: [...SIGN_IN_WORDS],
      anchors: ['new device', 'alert'],
    },
    {
      id: 'review_sessions',
      description: 'active sessions can be reviewed under Settings > Security',
      kind: 'action',
      verbs: ['review', 'check', 'see', 'view', 'find', 'list', 'show', 'manage'],
      objects: ['active session', 'session', 'signed-in device', 'device'],
      qualifiers: ['settings > security', 'security settings', 'settings, security', 'security page', 'security section', 'security tab'],
      advice: true,
    },
    {
      id: 'sign_out_unrecognised',
      description: 'a session the customer does not recognise can be signed out there (then change the password)',
      kind: 'action',
      verbs: ['sign out', 'log out', 'end', 'remove', 'terminate', 'revoke', 'close'],
      objects: ['session', 'device'],
      advice: true,
    },
  ];
}

export function forgottenClaims(expiryMinutes: number, otherExpiries: number[]): ReplyClaim[] {
  return [
    {
      id: 'reset_link_sent',
      description: 'a new password reset link has been sent',
      kind: 'action',
      verbs: ['send', 'email', 'resend', 'issue'],
      objects: ['reset link', 'password reset link', 'reset email', 'password reset email', 'new link'],
    },
    {
      id: 'link_expiry',
      description: `the reset link expires in ${expiryMinutes} minutes`,
      kind: 'duration',
      min: expiryMinutes,
      max: expiryMinutes,
      unit: 'minute',
      near_misses: otherExpiries.map((m) => ({ kind: 'duration' as const, min: m, max: m, unit: 'minute' as const })),
      about: ['expire', 'expires', 'expiry', 'expired', 'valid'],
      anchors: ['link', 'reset link', 'works for', 'good for', 'active for', 'lasts'],
      not_about: ['session'],
    },
    {
      id: 'spam_folder',
      description: 'the customer should check their spam folder',
      kind: 'action',
      verbs: ['check', 'look', 'search'],
      objects: ['spam folder', 'junk folder', 'spam', 'junk', 'spam or junk folder'],
      advice: true,
    },
  ];
}

export const sendsResetLink = (): ForbiddenStatement => ({
  id: 'sends_reset_link',
  description: 'telling the customer a password reset link is sent, which the takeover policy forbids because the attacker may control the mailbox',
  kind: 'action',
  verbs: ['send', 'email', 'resend', 'share', 'issue', 'forward'],
  objects: ['reset link', 'password reset link', 'password reset email', 'reset email', 'password reset'],
});

export const revokesApiKeys = (): ForbiddenStatement => ({
  id: 'revokes_api_keys',
  description: "telling the customer their API keys were revoked: takeover containment, which this case's policy rules out since nothing suggests anyone else has access",
  kind: 'action',
  verbs: revokeVerbs(),
  objects: ['api key'],
});

export interface KeyInputs {
  kind: CaseKind;
  timeline: Activity[];
  usual: Place[];
  clock: number;
  targetId: string;
  otherTicketIds: string[];
  articles: PolicyIds;
  parameters: PolicyParameters;
  otherExpiries: number[];
}

/** The answer key the policies give for the case the events show. */
export function answerKey(input: KeyInputs): Task['answer_key'] {
  const kind = classify(input.timeline, input.usual);
  // The timeline was drawn to show the drawn kind; the policy logic must read it back the same way.
  if (kind !== input.kind) throw new Error(`the events show a ${kind} case, not the ${input.kind} case drawn`);
  const base = { target_ticket_id: input.targetId, no_action_ticket_ids: input.otherTicketIds };
  const { articles, parameters } = input;
  if (kind === 'takeover') {
    const login = unrecognisedLogin(input.timeline, input.usual)!;
    const keys = keysInWindow(input.timeline, input.clock, parameters.windowHours);
    return {
      ...base,
      required_article_ids: [articles.takeover],
      priority: 'urgent',
      team: 'security_ops',
      resolution: { code: 'security_escalation' },
      reply_claims: takeoverClaims(parameters.windowHours, keys),
      forbidden: [sendsResetLink()],
      justification: {
        priority: `${articles.takeover}: 'Set the priority to urgent' (a sign-in from ${login.place.city}, ${login.place.cc}${login.newDevice ? ' on a new device' : ', not a usual location'}, followed by ${changesAfter(input.timeline, login)}).`,
        team: `${articles.takeover}: 'route the ticket to the security_ops team'.`,
        resolution: `${articles.takeover}: 'Resolve the ticket as security_escalation'; keys created in the last ${parameters.windowHours} hours: ${keys.length > 0 ? keys.join(', ') : 'none, so nothing to revoke and no revocation to tell'}.`,
      },
    };
  }
  if (kind === 'login_alert') {
    const login = unrecognisedLogin(input.timeline, input.usual)!;
    return {
      ...base,
      required_article_ids: [articles.loginAlert],
      priority: 'normal',
      team: 'general_support',
      resolution: { code: 'information_provided' },
      reply_claims: loginAlertClaims(login),
      forbidden: [revokesApiKeys()],
      justification: {
        priority: `${articles.loginAlert}: 'Set the priority to normal' (a new sign-in from ${login.place.city}, ${login.place.cc} with no change after it).`,
        team: `${articles.loginAlert}: 'route the ticket to the general_support team'.`,
        resolution: `${articles.loginAlert}: 'Resolve the ticket as information_provided'; ${articles.takeover} needs a change after the sign-in.`,
      },
    };
  }
  return {
    ...base,
    required_article_ids: [articles.forgotten],
    priority: 'normal',
    team: 'general_support',
    resolution: { code: 'password_reset_sent' },
    reply_claims: forgottenClaims(parameters.expiryMinutes, input.otherExpiries),
    forbidden: [revokesApiKeys()],
    justification: {
      priority: `${articles.forgotten}: 'Set the priority to normal' (every sign-in and attempt comes from a usual location: ${input.usual.map((u) => u.city).join(', ')}).`,
      team: `${articles.forgotten}: 'route the ticket to the general_support team'.`,
      resolution: `${articles.forgotten}: 'Resolve the ticket as password_reset_sent'; the link expires in ${parameters.expiryMinutes} minutes.`,
    },
  };
}

function changesAfter(timeline: Activity[], login: Login): string {
  const names: Record<string, string> = { password_changed: 'a password change', mfa_disabled: 'MFA disabled', api_key_created: 'API keys created', export: 'a bulk export' };
  return [...new Set(timeline.filter((a) => a.at > login.at && isChange(a)).map((a) => names[a.type]))].join(', ');
}

import type { ReplyClaim, Task } from '../kit';
import { KIND_DECISIONS, LOCK_HOURS, classifyG4, failuresInARow, type Attempt, type G4Case } from './case-facts';
import { KIND_TITLES, TRIAGE_TITLE, type G4ArticleIds } from './case-texts';
import { isChange, samePlace, type Activity } from './facts';
import {
  SIGN_IN_WORDS,
  forgottenClaims,
  keysInWindow,
  loginAlertClaims,
  revokesApiKeys,
  sendsResetLink,
  takeoverClaims,
  unrecognisedLogin,
} from './key';

/**
 * Generator version 4's answer key, derived from the case: the kind read back from the event log against the usual
 * locations and the triage article's lock threshold picks the policy article, which sets the code, the team and a
 * base priority; the triage article raises the priority one level for premium and VIP customers and one for
 * business-critical accounts (seats against this instance's threshold), and routes VIP accounts to the account team.
 * Every claim is one of the shapes versions 1-3 declare (key.ts), or the same kind with this case's value:
 *   - takeover: locked, sessions signed out, the keys in the revocation window revoked, video verification;
 *   - password_exposed: a reset link sent, its lifetime, changing the password wherever else it is used;
 *   - login_alert: the new sign-in's date, sessions under Settings > Security, signing one out;
 *   - blocked_attempts: the attempts' date, that they were blocked, sessions under Settings > Security;
 *   - lockout: the account is locked, and the hours until the lock lifts;
 *   - forgotten_password: a reset link sent, its lifetime, the spam folder.
 */

const EXPIRIES = [15, 30, 60];

const only = (claims: ReplyClaim[], ids: string[]) => claims.filter((c) => ids.includes(c.id));

/** The first attempt from an unrecognised place that failed. */
function unrecognisedFailure(timeline: Activity[], c: G4Case): Attempt | undefined {
  return timeline.find((a): a is Attempt => a.type === 'login' && !a.success && (a.newDevice || !c.person.usual.some((u) => samePlace(u, a.place))));
}

function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export function buildG4AnswerKey(c: G4Case, clock: number, targetId: string, otherTicketIds: string[], ids: G4ArticleIds): Task['answer_key'] {
  const kind = classifyG4(c.timeline, c.person.usual, c.policy.lockAfter);
  // The timeline was drawn to show the drawn kind; the policy logic must read it back the same way.
  if (kind !== c.kind) throw new Error(`the events show a ${kind} case, not the ${c.kind} case drawn`);
  const p = c.policy;
  const otherExpiries = EXPIRIES.filter((m) => m !== p.expiryMinutes);
  let claims: ReplyClaim[] = [];
  let forbidden: NonNullable<Task['answer_key']['forbidden']> = [revokesApiKeys()];
  let facts = '';
  switch (kind) {
    case 'takeover': {
      const login = unrecognisedLogin(c.timeline, c.person.usual)!;
      const keys = keysInWindow(c.timeline, clock, p.windowHours);
      claims = takeoverClaims(p.windowHours, keys);
      forbidden = [sendsResetLink()];
      const changed = [...new Set(c.timeline.filter((a) => a.at > login.at && isChange(a)).map((a) => a.type))].join(', ');
      facts = `a sign-in from ${login.place.city}, ${login.place.cc}${login.newDevice ? ' on a new device' : ''}, then ${changed}; keys in the last ${p.windowHours} hours: ${keys.length > 0 ? keys.join(', ') : 'none'}`;
      break;
    }
    case 'password_exposed': {
      const attempt = c.timeline.find((a): a is Attempt => a.type === 'login' && !a.success && a.mfa === true && !c.person.usual.some((u) => samePlace(u, a.place)))!;
      claims = [
        ...only(forgottenClaims(p.expiryMinutes, otherExpiries), ['reset_link_sent', 'link_expiry']),
        {
          id: 'change_password_elsewhere',
          description: 'the customer should change the password wherever else they use it',
          kind: 'action',
          verbs: ['change', 'update', 'replace'],
          objects: ['password', 'passwords'],
          qualifiers: ['elsewhere', 'anywhere else', 'other sites', 'other services', 'other accounts', 'other websites', 'wherever else'],
          advice: true,
        },
      ];
      facts = `the right password from ${attempt.place.city}, ${attempt.place.cc}, stopped at the MFA code`;
      break;
    }
    case 'login_alert': {
      const login = unrecognisedLogin(c.timeline, c.person.usual)!;
      claims = loginAlertClaims(login);
      facts = `a sign-in from ${login.place.city}, ${login.place.cc}${login.newDevice ? ' on a new device' : ''} with no change after it`;
      break;
    }
    case 'blocked_attempts': {
      const attempt = unrecognisedFailure(c.timeline, c)!;
      const review = loginAlertClaims(attempt).find((x) => x.id === 'review_sessions')!;
      claims = [
        {
          id: 'attempts_date',
          description: `the failed sign-in attempts from ${attempt.place.city} began on ${dayOf(attempt.at)}`,
          kind: 'date',
          date: dayOf(attempt.at),
          about: [...SIGN_IN_WORDS, 'attempt', 'attempts', 'tried', 'tries'],
          anchors: ['blocked', 'failed', 'unfamiliar'],
        },
        {
          id: 'attempts_blocked',
          description: 'every attempt was blocked: none got in',
          kind: 'action',
          verbs: ['block', 'stop', 'reject', 'refuse', 'deny', 'turn away'],
          objects: ['attempt', 'attempts', 'sign-in attempt', 'login attempt', 'sign-in', 'login', 'them'],
        },
        review,
      ];
      forbidden = [revokesApiKeys(), sendsResetLink()];
      facts = `failed sign-ins from ${attempt.place.city}, ${attempt.place.cc}, every one at the password`;
      break;
    }
    case 'lockout': {
      const locked = takeoverClaims(p.windowHours, []).find((x) => x.id === 'account_locked')!;
      claims = [
        locked,
        {
          id: 'lock_duration',
          description: `the lock lifts ${p.lockHours} hours after the last failed sign-in`,
          kind: 'duration',
          min: p.lockHours,
          max: p.lockHours,
          unit: 'hour',
          near_misses: LOCK_HOURS.filter((h) => h !== p.lockHours).map((h) => ({ kind: 'duration' as const, min: h, max: h, unit: 'hour' as const })),
          about: ['unlock', 'unlocks', 'unlocked', 'lift', 'lifts', 'lifted', 'locked', 'lock', 'expires'],
          anchors: ['after the last', 'failed', 'automatically', 'by itself'],
          not_about: ['link', 'session', 'key'],
        },
      ];
      forbidden = [sendsResetLink()];
      facts = `${failuresInARow(c.timeline.filter((a): a is Attempt => a.type === 'login'))} failed sign-ins in a row from the usual locations, the lock threshold ${p.lockAfter}`;
      break;
    }
    case 'forgotten_password': {
      claims = forgottenClaims(p.expiryMinutes, otherExpiries);
      facts = `${failuresInARow(c.timeline.filter((a): a is Attempt => a.type === 'login'))} failed sign-ins in a row from the usual locations, under the lock threshold ${p.lockAfter}`;
      break;
    }
  }
  const base = KIND_DECISIONS[kind];
  const articleId = ids.kinds[kind];
  return {
    target_ticket_id: targetId,
    required_article_ids: [articleId],
    priority: c.priority,
    team: c.team,
    resolution: { code: base.code },
    reply_claims: claims,
    no_action_ticket_ids: otherTicketIds,
    forbidden,
    justification: {
      priority:
        `${articleId} ("${KIND_TITLES[kind]}"), chosen by ${ids.triage} ("${TRIAGE_TITLE}"): 'Set the priority to ${base.priority}'` +
        `${c.tier === 'standard' || kind === 'takeover' ? '' : `, one level up for a ${c.tier} customer`}${c.seats >= p.seatThreshold ? `, one level up for ${c.seats} seats (the threshold ${p.seatThreshold})` : ''}: ${c.priority}.`,
      team: c.team === 'vip_concierge' ? `${ids.triage}: accounts with an annual contract of ${p.accountTeamFrom} dollars or more go to the vip_concierge team (${c.seats} seats at ${c.seatPrice} dollars).` : `${articleId}: 'route the ticket to the ${base.team} team'.`,
      resolution: `${articleId}: 'Resolve the ticket as ${base.code}' (${facts}).`,
    },
  };
}

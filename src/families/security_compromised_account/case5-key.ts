import type { ReplyClaim, Task } from '../kit';
import { usd } from '../shared';
import { buildG4AnswerKey } from './case-key';
import { G5_LOCK_HOURS, TAKEOVERS, classifyG5, type G5Case, type G5Kind } from './case5-facts';
import type { G4Case, G4Kind } from './case-facts';
import { KIND5_TITLES, TRIAGE5_TITLE, type G5ArticleIds } from './case5-texts';
import { isChange } from './facts';
import { keysInWindow, revokesApiKeys, sendsResetLink, takeoverClaims, unrecognisedLogin } from './key';

/**
 * Generator version 5's answer key, derived from the case: the kind read back from the event log against the usual
 * locations and the triage article's lock threshold picks the policy article, which sets the code and the team; the
 * triage article sets the priority from the case's urgency (its rule per kind, against this instance's recent-window
 * and burst figures) and the impact (seats against this instance's business-critical threshold), and reroutes accounts
 * over this instance's account-team line (vip_concierge) or with the Security Assurance addendum (security_ops).
 * The claims of the kinds version 4 had are version 4's (built by case-key.ts on the same facts), except the password
 * known to someone else, whose "change it elsewhere" advice is recognised in more of its usual wordings; the new kinds:
 *   - takeover with data exported: locked, sessions signed out, the export's download link cancelled, video verification;
 *   - takeover with API keys created: version 4's takeover claims (the keys in the revocation window named);
 *   - takeover of the password or MFA: locked, sessions signed out, video verification, MFA turned back on;
 *   - MFA trouble: sign in with a backup code, MFA removed only after video verification.
 */

/** The kind version 4's key builder knows each version 5 kind as (its claims and facts), for the kinds it had. */
const AS_G4: Partial<Record<G5Kind, G4Kind>> = {
  password_exposed: 'password_exposed',
  login_alert: 'login_alert',
  blocked_attempts: 'blocked_attempts',
  lockout: 'lockout',
  forgotten_password: 'forgotten_password',
};

const PLACES = ['site', 'service', 'app', 'account', 'website', 'platform'];
const PLACE_PAIRS = PLACES.flatMap((a) => PLACES.filter((b) => b !== a).flatMap((b) => [`other ${a} or ${b}`, `other ${a}s or ${b}s`, `other ${a}s and ${b}s`, `other ${a} and ${b}`]));

/** The password known to someone else: change it wherever else it is used, in the words replies use for that. */
export function changeElsewhereClaim(): ReplyClaim {
  return {
    id: 'change_password_elsewhere',
    description: 'the customer should change the password wherever else they use it',
    kind: 'action',
    verbs: ['change', 'update', 'replace', 'reset', 'swap', 'swap out', 'rotate'],
    objects: ['password', 'passwords', 'same password', 'that password', 'this password', 'it'],
    qualifiers: [
      'elsewhere',
      'anywhere else',
      'everywhere else',
      'wherever else',
      'other sites',
      'other site',
      'other services',
      'other service',
      'other accounts',
      'other account',
      'other websites',
      'other website',
      'other apps',
      'other app',
      // Two places offered together are one place here ("any other site or service"), not alternatives.
      ...PLACE_PAIRS,
    ],
    advice: true,
  };
}

function takeoverCoreClaims(windowHours: number): ReplyClaim[] {
  return takeoverClaims(windowHours, []);
}

function exportLinkClaim(): ReplyClaim {
  return {
    id: 'export_link_cancelled',
    description: "the export's download link is cancelled, so the exported file can no longer be fetched",
    kind: 'action',
    verbs: ['cancel', 'revoke', 'disable', 'deactivate', 'invalidate', 'expire', 'delete', 'remove', 'kill', 'block'],
    objects: ['download link', 'export link', 'export', 'download', 'exported file', 'export file'],
  };
}

function mfaBackOnClaim(): ReplyClaim {
  return {
    id: 'mfa_back_on',
    description: 'MFA is turned back on with the customer on the verification call',
    kind: 'action',
    verbs: ['turn on', 're-enable', 'enable', 'reenable', 'set up', 'restore', 're-enrol', 're-enroll', 'reactivate', 'switch on', 'turn back on'],
    objects: ['mfa', 'two-factor', '2fa', 'multi-factor', 'two-factor authentication', 'multi-factor authentication', 'authenticator'],
  };
}

function backupCodeClaim(): ReplyClaim {
  return {
    id: 'backup_code',
    description: 'the customer can sign in with one of their MFA backup codes',
    kind: 'action',
    verbs: ['use', 'enter', 'sign in with', 'log in with', 'type'],
    objects: ['backup code', 'backup codes', 'recovery code', 'recovery codes'],
    advice: true,
  };
}

/**
 * Generator version 6's MFA-trouble verification: support removes MFA only after verifying the customer's identity on
 * a video call, a rule of the policy the reply states. Version 5's (the takeovers' claim) in more of the words agents
 * state it in: "validate your identity", "authenticate you", "verify you on a video call".
 */
export function mfaVerificationClaim(windowHours: number): ReplyClaim {
  const claim = takeoverCoreClaims(windowHours).find((x) => x.id === 'identity_verification')!;
  if (claim.kind !== 'action') throw new Error('the identity verification claim is an action');
  return { ...claim, verbs: [...claim.verbs, 'validate', 'authenticate', 'establish'], objects: [...claim.objects, 'you'] };
}

export function buildG5AnswerKey(c: G5Case, clock: number, targetId: string, otherTicketIds: string[], ids: G5ArticleIds): Task['answer_key'] {
  const kind = classifyG5(c.timeline, c.person.usual, c.policy.lockAfter);
  // The timeline was drawn to show the drawn kind; the policy logic must read it back the same way.
  if (kind !== c.kind) throw new Error(`the events show a ${kind} case, not the ${c.kind} case drawn`);
  const p = c.policy;
  const articleId = ids.kinds[kind];
  const { code, team: policyTeam } = c.decision;
  let claims: ReplyClaim[];
  let forbidden: NonNullable<Task['answer_key']['forbidden']>;
  let facts: string;
  const g4 = AS_G4[kind];
  if (g4) {
    // Version 4's claims on the same facts (its builder reads only the kind, the timeline, the usual places and the
    // figures it states), with version 5's wider "change it elsewhere" claim.
    const asG4 = { ...c, kind: g4, seatPrice: 0, policy: { ...p, accountTeamFrom: Infinity, seatThreshold: Infinity } } as unknown as G4Case;
    const key = buildG4AnswerKey(asG4, clock, targetId, otherTicketIds, { triage: ids.triage, guide: ids.guide, topics: ids.topics, kinds: { ...ids.kinds, takeover: ids.kinds.takeover_keys } });
    claims = (key.reply_claims ?? []).map((claim) => (claim.id === 'change_password_elsewhere' ? changeElsewhereClaim() : claim));
    forbidden = key.forbidden ?? [];
    facts = /\((.*)\)\.$/.exec(key.justification?.resolution ?? '')?.[1] ?? kind;
    if (kind === 'lockout') {
      claims = claims.map((claim) =>
        claim.id === 'lock_duration' && claim.kind === 'duration'
          ? { ...claim, near_misses: G5_LOCK_HOURS.filter((h) => h !== p.lockHours).map((h) => ({ kind: 'duration' as const, min: h, max: h, unit: 'hour' as const })) }
          : claim,
      );
    }
  } else if (kind === 'mfa_trouble') {
    claims = [backupCodeClaim(), c.version === 6 ? mfaVerificationClaim(p.windowHours) : takeoverCoreClaims(p.windowHours).find((x) => x.id === 'identity_verification')!];
    forbidden = [sendsResetLink(), revokesApiKeys()];
    facts = `the right password from ${c.person.usual.map((u) => u.city).join(' or ')} (a usual location), stopped at the MFA code`;
  } else {
    const login = unrecognisedLogin(c.timeline, c.person.usual)!;
    const changed = [...new Set(c.timeline.filter((a) => a.at > login.at && isChange(a)).map((a) => a.type))].join(', ');
    const core = takeoverCoreClaims(p.windowHours);
    const keys = keysInWindow(c.timeline, clock, p.windowHours);
    if (kind === 'takeover_export') claims = [...core.slice(0, 2), exportLinkClaim(), core[2]];
    else if (kind === 'takeover_keys') claims = takeoverClaims(p.windowHours, keys);
    else claims = [...core, mfaBackOnClaim()];
    forbidden = [sendsResetLink()];
    facts = `a sign-in from ${login.place.city}, ${login.place.cc}${login.newDevice ? ' on a new device' : ''}, then ${changed}${kind === 'takeover_keys' ? `; keys in the last ${p.windowHours} hours: ${keys.join(', ')}` : ''}`;
  }
  const businessCritical = c.seats >= p.seatThreshold;
  const urgency = TAKEOVERS.includes(kind) ? 'high (a compromised account)' : c.urgent ? 'high' : 'normal';
  return {
    target_ticket_id: targetId,
    required_article_ids: [articleId],
    priority: c.priority,
    team: c.team,
    resolution: { code },
    reply_claims: claims,
    no_action_ticket_ids: otherTicketIds,
    forbidden,
    justification: {
      priority:
        `${ids.triage} ("${TRIAGE5_TITLE}"): urgency ${urgency} for ${KIND5_TITLES[kind]}, impact ${businessCritical ? `high (${c.seats} seats, the threshold ${p.seatThreshold})` : `standard (${c.seats} seats, under ${p.seatThreshold})`}: ${c.priority}.`,
      team:
        c.team === 'vip_concierge'
          ? `${ids.triage}: an annual contract value of ${usd(c.contractValue)}, at or over ${usd(p.accountTeamFrom)}, goes to the vip_concierge team.`
          : c.addendum
            ? `${ids.triage}: under ${usd(p.accountTeamFrom)} a year, and the Security Assurance addendum in the contract notes: security_ops.`
            : `${articleId}: ${policyTeam ? `the ${policyTeam} team` : `the support-tier desk, ${c.team} for a ${c.tier} customer (${ids.triage})`}${kind === 'blocked_attempts' ? (code === 'security_escalation' ? ` (${p.burstAttempts} or more attempts: a password-guessing run)` : ` (fewer than ${p.burstAttempts} attempts)`) : ''}, under ${usd(p.accountTeamFrom)} a year and no addendum.`,
      resolution: `${articleId} ("${KIND5_TITLES[kind]}"): resolve as ${code} (${facts}).`,
    },
  };
}

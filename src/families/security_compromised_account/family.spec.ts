import { AgentEnvironment } from '../../../tools/validity/agents';
import { gradeReply } from '../../../tools/validity/validity-suite';
import { grade } from '../../engine/grader';
import { extractMentions, judgeClaims } from '../../engine/graders/v2/claims';
import { extractMentions as extractMentionsV7, judgeClaims as judgeClaimsV7 } from '../../engine/graders/v7/claims';
import { searchPolicies } from '../../engine/policy-search';
import type { Task } from '../kit';
import { securityCompromisedAccount as family, securityCompromisedAccountV3, securityCompromisedAccountV4, securityCompromisedAccountV5, securityCompromisedAccountV6 } from './family';
import { G5_DECISIONS, G5_KINDS, type G5Kind } from './case5-facts';
import { KIND5_TITLES } from './case5-texts';
import { CASE_KINDS, KIND_DECISIONS, type G4Kind } from './case-facts';
import { KIND_TITLES } from './case-texts';
import { solver } from './solver';

// What every family proves (solver, distinctness, memorisation, ablations, budgets) is src/families/families.spec.ts.

const SEEDS = Array.from({ length: 200 }, (_, i) => i);
const tasks = new Map<number, Task>();
function task(seed: number): Task {
  let t = tasks.get(seed);
  if (!t) tasks.set(seed, (t = family.generate(seed)));
  return t;
}

function target(t: Task) {
  return t.inbox.find((x) => x.id === t.answer_key.target_ticket_id)!;
}

/** The claims of a task that a reply covers, judged as the engine judges a reply sent on the target ticket. */
function covered(t: Task, reply: string): string[] {
  const analysis = extractMentions(reply, t.clock!, { policies: t.knowledge_base.map((a) => ({ title: a.title, body: a.body })) });
  return judgeClaims(t.answer_key.reply_claims!, [analysis]).filter((v) => v.covered).map((v) => v.id);
}

/** The API key revocation window the task's takeover policy states, in hours. */
function windowOf(t: Task): number {
  const policy = t.knowledge_base.find((a) => a.title.startsWith('Compromised account'))!;
  return Number(/created in the last (\d+) hours/.exec(policy.body)![1]);
}

function asksRevocation(t: Task): boolean {
  return t.answer_key.reply_claims!.some((c) => c.id === 'api_keys_revoked');
}

/** The first ten instances of one case kind. */
function casesOf(code: string): Task[] {
  return SEEDS.map(task).filter((t) => t.answer_key.resolution.code === code).slice(0, 10);
}

describe('security_compromised_account family', () => {
  it('draws about half takeovers and a quarter each of sign-in alerts and forgotten passwords (versions 1-3)', () => {
    const counts: Record<string, number> = {};
    for (let seed = 0; seed < 1000; seed++) {
      const code = family.generate(seed).answer_key.resolution.code;
      counts[code] = (counts[code] ?? 0) + 1;
    }
    expect(counts.security_escalation).toBeGreaterThan(420);
    expect(counts.security_escalation).toBeLessThan(580);
    expect(counts.information_provided).toBeGreaterThan(180);
    expect(counts.password_reset_sent).toBeGreaterThan(180);
  });

  it('varies what decides the answer: windows, lifetimes, ticket ids, presets, the customer', () => {
    const windows = new Set<string>();
    const expiries = new Set<number>();
    const targets = new Set<string>();
    const presets = new Set<string>();
    for (const seed of SEEDS) {
      const t = task(seed);
      const key = t.answer_key;
      for (const c of key.reply_claims!) {
        if (c.id === 'api_keys_revoked' && c.kind === 'action') windows.add(c.qualifiers![0]);
        if (c.kind === 'duration') expiries.add(c.min);
      }
      targets.add(key.target_ticket_id);
      presets.add(`${target(t).priority}/${target(t).team}`);
    }
    expect([...windows].sort()).toEqual(['24 hours', '48 hours', '72 hours']);
    expect([...expiries].sort((a, b) => a - b)).toEqual([15, 30, 60]);
    expect(targets.size).toBeGreaterThan(190);
    expect(presets.size).toBeGreaterThan(8);
  });

  it('keeps the inbox realistic: 5-6 tickets, a resolved one, the same customer twice, distinct names', () => {
    for (const seed of SEEDS) {
      const t = task(seed);
      expect(t.inbox.length).toBeGreaterThanOrEqual(5);
      expect(t.inbox.length).toBeLessThanOrEqual(6);
      expect(t.inbox.some((x) => x.status === 'resolved')).toBe(true);
      const customer = target(t).customer.name;
      expect(t.inbox.filter((x) => x.customer.name === customer)).toHaveLength(2);
      const names = [...new Set(t.inbox.map((x) => x.customer.name))];
      expect(new Set(names.map((n) => n.split(' ')[0])).size).toBe(names.length);
      expect(new Set(names.map((n) => n.split(' ')[1])).size).toBe(names.length);
      // The instruction names the customer and never the case.
      expect(t.instruction).toContain(customer);
      expect(t.instruction).not.toMatch(/takeover|compromis|hack|forgot|reset|alert|locked/i);
      // Nothing the customer writes carries an internal code.
      for (const x of t.inbox) expect(`${x.subject} ${x.body}`).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    }
  });

  it('puts each policy on top of a query naming its case', () => {
    const queries: Record<string, string> = {
      security_escalation: 'compromised account takeover',
      information_provided: 'suspicious login alert no account changes',
      password_reset_sent: 'forgotten password locked out',
    };
    for (const seed of SEEDS) {
      const t = task(seed);
      expect(searchPolicies(t, queries[t.answer_key.resolution.code])[0].article_id).toBe(t.answer_key.required_article_ids[0]);
    }
  });

  it('tells nothing from the sign-in alerts alone: the customer\'s own sign-ins send them too', () => {
    // The red team's one-event rule: no alert, a forgotten password; an alert followed by a change, a takeover;
    // otherwise a sign-in alert. Only the sign-in places and devices against the usual ones decide.
    const ALERT = 'New sign-in alert emailed to the account owner';
    const CHANGE = /^(Password changed|MFA disabled|API key '.+' created with .+|Export of .* started)$/;
    let right = 0;
    const alerted = new Set<string>();
    const resets = new Set<string>();
    for (const seed of SEEDS) {
      const t = task(seed);
      const code = t.answer_key.resolution.code;
      const events = target(t).recent_events;
      const first = events.find((e) => e.detail === ALERT);
      const guess = !first ? 'password_reset_sent' : events.some((e) => Date.parse(e.at) > Date.parse(first.at) && CHANGE.test(e.detail)) ? 'security_escalation' : 'information_provided';
      if (guess === code) right++;
      if (first) alerted.add(code);
      if (events.some((e) => e.detail.startsWith('Password reset requested'))) resets.add(code);
    }
    // Right on 64.5% of seeds 0-199, and its episodes score 0.67 (before alerts came from own sign-ins: 100%, 1.0).
    expect(right / SEEDS.length).toBeLessThanOrEqual(0.7);
    // Alerts in every kind, and a reset request is no tell of a forgotten password either.
    expect([...alerted].sort()).toEqual(['information_provided', 'password_reset_sent', 'security_escalation']);
    expect([...resets].sort()).toEqual(['password_reset_sent', 'security_escalation']);
  });

  it('is hard where it says: the first search hit, and ignoring the contract notes', () => {
    // The suite over the registry measures both ablations against the solver's bounds (the version drawing new
    // episodes, g4); its text must claim them. Version 1's text keeps the bounds it was measured at.
    expect(securityCompromisedAccountV4.hard).toContain(`mean ≤ ${solver.ablationMeanAtMost.firstSearchHit}`);
    expect(securityCompromisedAccountV4.hard).toContain(`mean ≤ ${solver.ablationMeanAtMost.ignoreContractNotes}`);
    expect(family.hard).toContain('mean ≤ 0.6');
    expect(family.hard).toContain('mean ≤ 0.69');
  });

  it("ranks a misleading policy first for the customer's subject line in a good share of cases", () => {
    const misled = SEEDS.filter((seed) => {
      const t = task(seed);
      return searchPolicies(t, target(t).subject)[0]?.article_id !== t.answer_key.required_article_ids[0];
    });
    expect(misled.length).toBeGreaterThan(SEEDS.length * 0.4);
  });

  describe('reply claims judge other correct wordings, and the wrong values', () => {
    const takeovers = SEEDS.map(task).filter((t) => t.answer_key.resolution.code === 'security_escalation');
    it.each(takeovers.filter(asksRevocation).slice(0, 10).map((t) => [t.answer_key.target_ticket_id, t]))('takeover (%s)', (_, t) => {
      const hours = (t.answer_key.reply_claims!.find((c) => c.id === 'api_keys_revoked') as { qualifiers: string[] }).qualifiers[0];
      expect(hours).toBe(`${windowOf(t)} hours`);
      const keys = (t.answer_key.reply_claims!.find((c) => c.id === 'named_keys_revoked') as { objects: string[] } | undefined)?.objects ?? [];
      const named = keys.length > 0 ? `, including ${keys.join(' and ')}` : '';
      const all = t.answer_key.reply_claims!.map((c) => c.id).sort();
      expect(covered(t, `Account locked, all sessions signed out. Every API key created in the last ${hours} has been revoked${named}. We will verify your identity on a video call before restoring access.`).sort()).toEqual(all);
      expect(covered(t, `We've frozen your account and logged out every active session. We have deactivated the API keys made in the past ${hours}${named}. You'll have a video identity check with us before we restore access.`).sort()).toEqual(all);
      // Another window than the policy's does not state the revocation the policy promises.
      const other = hours === '24 hours' ? '72 hours' : '24 hours';
      expect(covered(t, `We have revoked every API key created in the last ${other}.`)).not.toContain('api_keys_revoked');
    });

    it('asks for the revocation exactly when a key was created in the window, and credits an honest "none to revoke"', () => {
      let none = 0;
      for (const t of takeovers) {
        const since = Date.parse(t.clock!) - windowOf(t) * 3_600_000;
        const inWindow = target(t).recent_events.filter((e) => e.kind === 'api' && Date.parse(e.at) >= since);
        expect({ id: t.answer_key.target_ticket_id, asks: asksRevocation(t) }).toEqual({ id: t.answer_key.target_ticket_id, asks: inWindow.length > 0 });
        if (inWindow.length > 0) continue;
        none++;
        expect(t.answer_key.reply_claims!.map((c) => c.id).sort()).toEqual(['account_locked', 'identity_verification', 'sessions_signed_out']);
        const reply = `We have locked your account and signed out all active sessions. No API keys were created in the last ${windowOf(t)} hours, so there were none to revoke. We will verify your identity on a video call before restoring access.`;
        expect(covered(t, reply).sort()).toEqual(['account_locked', 'identity_verification', 'sessions_signed_out']);
      }
      expect(none).toBeGreaterThan(10);
    });

    it.each(casesOf('information_provided').map((t) => [t.answer_key.target_ticket_id, t]))('sign-in alert (%s)', (_, t) => {
      const date = (t.answer_key.reply_claims!.find((c) => c.id === 'sign_in_date') as { date: string }).date;
      const all = ['review_sessions', 'sign_in_date', 'sign_out_unrecognised'];
      expect(covered(t, `You signed in from a new device on ${date}. Your active sessions can be reviewed under Settings > Security, and each session has a Sign out button, so an unfamiliar device can be removed straight away.`).sort()).toEqual(all);
      expect(covered(t, 'Go to Settings > Security to review your active sessions.')).toEqual(['review_sessions']);
      // The day before is another sign-in than the one the customer was alerted to.
      const before = new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      expect(covered(t, `The new sign-in was on ${before}.`)).not.toContain('sign_in_date');
    });

    it.each(casesOf('password_reset_sent').map((t) => [t.answer_key.target_ticket_id, t]))('forgotten password (%s)', (_, t) => {
      const minutes = (t.answer_key.reply_claims!.find((c) => c.kind === 'duration') as { min: number }).min;
      const all = ['link_expiry', 'reset_link_sent', 'spam_folder'];
      expect(covered(t, `We've emailed you a new link to reset your password, and we have resent the password reset email too. The link is valid for ${minutes} minutes. Do check your spam folder, as reset emails are sometimes filtered there.`).sort()).toEqual(all);
      expect(covered(t, `A fresh password reset link has been sent to you; it expires in ${minutes} minutes. It's worth checking your spam or junk folder too.`).sort()).toEqual(all);
      // The other lifetimes the policy could have said are near misses.
      const other = minutes === 30 ? 60 : 30;
      expect(covered(t, `We have sent a new reset link. It expires in ${other} minutes.`)).not.toContain('link_expiry');
      expect(covered(t, `We have sent a new reset link. It expires in ${minutes} or ${other} minutes.`)).not.toContain('link_expiry');
    });
  });

  it('penalises what each policy forbids', () => {
    const takeover = casesOf('security_escalation')[0];
    const alert = casesOf('information_provided')[0];
    const forbidden = (t: Task, reply: string) => {
      const env = new AgentEnvironment(t, 1, 'dense');
      env.step({ type: 'open_ticket', ticket_id: t.answer_key.target_ticket_id });
      env.step({ type: 'send_reply', message: reply });
      return grade(t, env.state).penalties.map((p) => p.id);
    };
    expect(forbidden(takeover, "We've sent you a password reset link so you can get back in.")).toEqual(['sends_reset_link']);
    expect(forbidden(alert, 'To be safe, we have revoked all your API keys.')).toEqual(['revokes_api_keys']);
    expect(forbidden(alert, 'Nothing changed after the sign-in, so we have not revoked any API keys.')).toEqual([]);
  });
});

describe('generator version 3: clocks in May', () => {
  const MAY = 4;
  const inMay = Array.from({ length: 400 }, (_, seed) => seed).filter((seed) => new Date(securityCompromisedAccountV3.generate(seed).clock!).getUTCMonth() === MAY);

  it('draws the whole year, May included, where versions 1 and 2 never did', () => {
    expect(inMay.length).toBeGreaterThan(15);
    expect(SEEDS.filter((seed) => new Date(task(seed).clock!).getUTCMonth() === MAY)).toEqual([]);
  });

  // The guard versions 1 and 2 kept: "May" read as the modal verb would make a sentence dated "15 May" a hedge.
  // The month beside a day number, before or after it, with or without a weekday or year, is a date, in every sentence.
  const toldInMay: Array<[string, (reply: string) => string]> = [
    ['"on 15 May" after each sentence', (r) => r.replace(/\.(\s|$)/g, ' on 15 May.$1')],
    ['"May 15:" before each sentence', (r) => r.replace(/(^|\.\s+)([A-Z])/g, (_m, p: string, c: string) => `${p}May 15: ${c}`)],
    ['"(as of Friday 15 May 2026)"', (r) => r.replace(/\.(\s|$)/g, ' (as of Friday 15 May 2026).$1')],
    ['"since 3rd May"', (r) => r.replace(/\.(\s|$)/g, ', since 3rd May.$1')],
  ];
  it.each(toldInMay)('the reference solver scores 1.0 on May clocks under grader version 3 with the month told %s', (_label, rewrite) => {
    for (const seed of inMay.slice(0, 12)) {
      const t = securityCompromisedAccountV3.generate(seed);
      const env = new AgentEnvironment(t, seed, 'dense', 3);
      const send = env.step.bind(env);
      env.step = (action) => send(action.type === 'send_reply' ? { ...action, message: rewrite(action.message) } : action);
      solver.solve(env);
      expect([seed, env.state.score_milli]).toEqual([seed, 1000]);
    }
  });
});

describe('generator version 4: six kinds of account case, told apart only by reading', () => {
  const V4_SEEDS = Array.from({ length: 600 }, (_, seed) => seed);
  const drawn = new Map<number, Task>();
  const v4 = (seed: number) => drawn.get(seed) ?? drawn.set(seed, securityCompromisedAccountV4.generate(seed)).get(seed)!;
  const kindOf = (t: Task): G4Kind => {
    const title = t.knowledge_base.find((a) => a.id === t.answer_key.required_article_ids[0])!.title;
    return (Object.keys(KIND_TITLES) as G4Kind[]).find((k) => KIND_TITLES[k] === title)!;
  };
  const notesOf = (t: Task) => target(t).contract_notes.join(' ');
  const seatsOf = (t: Task) => Number(/(\d+) seats at/.exec(notesOf(t))![1]);
  const triageOf = (t: Task) => t.knowledge_base.find((a) => /which policy applies/.test(a.title))!.body;

  it('draws the six kinds evenly, each with its own policy article, code and (below the account-team line) team', () => {
    const counts: Record<string, number> = {};
    for (const seed of V4_SEEDS) {
      const t = v4(seed);
      const kind = kindOf(t);
      counts[kind] = (counts[kind] ?? 0) + 1;
      expect(t.answer_key.resolution.code).toBe(KIND_DECISIONS[kind].code);
      expect([KIND_DECISIONS[kind].team, 'vip_concierge']).toContain(t.answer_key.team);
    }
    expect(Object.keys(counts).sort()).toEqual([...CASE_KINDS].sort());
    for (const kind of CASE_KINDS) expect(counts[kind] / V4_SEEDS.length).toBeGreaterThan(0.12);
    for (const kind of CASE_KINDS) expect(counts[kind] / V4_SEEDS.length).toBeLessThan(0.22);
  });

  it("draws the customer's words apart from the kind: every subject and body sentence in every kind", () => {
    const said = new Map<string, Set<G4Kind>>();
    for (const seed of V4_SEEDS) {
      const t = v4(seed);
      const sentences = [target(t).subject, ...target(t).body.replace(/ [A-Z][a-z]+$/, '').split(/(?<=[.?!]) /)];
      for (const s of sentences) said.set(s, new Set([...(said.get(s) ?? []), kindOf(t)]));
    }
    for (const [sentence, kinds] of said) expect([sentence, kinds.size]).toEqual([sentence, CASE_KINDS.length]);
  });

  it('gives no kind away by a word of the event log: no word on 5% of instances or more is in one kind on more than 60% of them', () => {
    const by = new Map<string, Map<G4Kind, number>>();
    for (const seed of V4_SEEDS) {
      const t = v4(seed);
      const words = new Set(target(t).recent_events.map((e) => `${e.kind} ${e.detail}`).join(' ').toLowerCase().match(/[a-z]+/g));
      for (const w of words) by.set(w, new Map([...(by.get(w) ?? new Map<G4Kind, number>())]).set(kindOf(t), (by.get(w)?.get(kindOf(t)) ?? 0) + 1));
    }
    const telling = [...by].flatMap(([word, kinds]) => {
      const n = [...kinds.values()].reduce((a, b) => a + b, 0);
      return n >= V4_SEEDS.length * 0.05 && Math.max(...kinds.values()) / n > 0.6 ? [word] : [];
    });
    expect(telling).toEqual([]);
  });

  it("decides by the knowledge base's figures for the instance: the lock threshold, the business-critical seats, the account-team line", () => {
    const failuresInARow = (t: Task) => {
      let run = 0;
      for (const e of target(t).recent_events) if (e.kind === 'login') run = e.detail.startsWith('Failed') ? run + 1 : 0;
      return run;
    };
    const lockouts = V4_SEEDS.map(v4).filter((t) => kindOf(t) === 'lockout');
    const forgotten = V4_SEEDS.map(v4).filter((t) => kindOf(t) === 'forgotten_password');
    // The count of failed sign-ins alone does not tell a lockout from a forgotten password: the threshold does.
    expect(Math.min(...lockouts.map(failuresInARow))).toBeLessThan(Math.max(...forgotten.map(failuresInARow)));
    for (const t of [...lockouts, ...forgotten]) {
      const threshold = Number(/and (\d+) or more failed sign-ins in a row/.exec(triageOf(t))![1]);
      expect(failuresInARow(t) >= threshold).toBe(kindOf(t) === 'lockout');
    }
    // The same seat count is business-critical in one instance and not in another; the priority follows.
    const levels = ['low', 'normal', 'high', 'urgent'];
    const raised = new Map<number, Set<boolean>>();
    for (const t of V4_SEEDS.map(v4)) {
      const threshold = Number(/those with (\d+) or more seats/.exec(triageOf(t))![1]);
      const kind = kindOf(t);
      const ups = (target(t).customer.tier === 'standard' || kind === 'takeover' ? 0 : 1) + (seatsOf(t) >= threshold ? 1 : 0);
      expect(t.answer_key.priority).toBe(levels[Math.min(3, levels.indexOf(KIND_DECISIONS[kind].priority) + ups)]);
      raised.set(seatsOf(t), new Set([...(raised.get(seatsOf(t)) ?? []), seatsOf(t) >= threshold]));
      const price = Number(/at \$([\d,]+)\.00 per seat/.exec(notesOf(t))![1].replace(/,/g, ''));
      const line = Number(/comes to \$([\d,]+)\.00 or more/.exec(triageOf(t))![1].replace(/,/g, ''));
      expect(t.answer_key.team === 'vip_concierge').toBe(seatsOf(t) * price >= line);
    }
    expect([...raised.values()].filter((both) => both.size === 2).length).toBeGreaterThan(3);
  });

  it('is solved at exactly 1.0 by the reference solver, its replies written in each of three styles', () => {
    const styles = new Set<number>();
    // (Solved episodes: FAMILY_SEEDS of them: 60 in npm test, 200 in CI's deeper run.)
    for (const seed of V4_SEEDS.slice(0, Number(process.env.FAMILY_SEEDS ?? 60))) {
      const t = v4(seed);
      const env = new AgentEnvironment(t, seed, 'dense');
      solver.solve(env);
      styles.add(Number(t.answer_key.target_ticket_id.replace(/\D/g, '')) % 3);
      expect({ seed, score: env.state.score_milli, penalties: grade(t, env.state).penalties }).toEqual({ seed, score: 1000, penalties: [] });
    }
    expect(styles.size).toBe(3);
  });
});

describe('generator version 5: nine kinds of account case, priority and team from more of the knowledge base', () => {
  const V5_SEEDS = Array.from({ length: 600 }, (_, seed) => seed);
  const drawn = new Map<number, Task>();
  const v5 = (seed: number) => drawn.get(seed) ?? drawn.set(seed, securityCompromisedAccountV5.generate(seed)).get(seed)!;
  const kindOf = (t: Task): G5Kind => {
    const title = t.knowledge_base.find((a) => a.id === t.answer_key.required_article_ids[0])!.title;
    return G5_KINDS.find((k) => KIND5_TITLES[k] === title)!;
  };
  const notesOf = (t: Task) => target(t).contract_notes.join(' ');
  const triageOf = (t: Task) => t.knowledge_base.find((a) => /which policy applies, priority and routing/.test(a.title))!.body;
  const articleOf = (t: Task) => t.knowledge_base.find((a) => a.id === t.answer_key.required_article_ids[0])!.body;
  const figure = (text: string, re: RegExp) => Number(re.exec(text)![1].replace(/,/g, ''));
  const usualOf = (t: Task) => /Usual sign-in locations: (.*?)\. MFA/.exec(notesOf(t))![1].split(' and ');
  interface Line { at: number; place: string; ok: boolean; mfa: boolean; newDevice: boolean }
  const logins = (t: Task): Line[] =>
    target(t).recent_events.flatMap((e) => {
      const m = /^(Successful|Failed) login from (new device, )?IP \S+ \(([^)]+)\)(.*)$/.exec(e.detail);
      return m ? [{ at: Date.parse(e.at), place: m[3], ok: m[1] === 'Successful', mfa: /MFA code rejected/.test(m[4]), newDevice: m[2] !== undefined }] : [];
    });
  const strange = (t: Task) => logins(t).filter((l) => l.newDevice || !usualOf(t).includes(l.place));

  it('draws the nine kinds at their weights, each with its own policy article and resolution', () => {
    const counts: Record<string, number> = {};
    for (const seed of V5_SEEDS) {
      const t = v5(seed);
      const kind = kindOf(t);
      counts[kind] = (counts[kind] ?? 0) + 1;
      const burst = kind === 'blocked_attempts' && strange(t).length >= figure(articleOf(t), /With (\d+) or more attempts/);
      expect(t.answer_key.resolution.code).toBe(burst ? 'security_escalation' : G5_DECISIONS[kind].code);
    }
    expect(Object.keys(counts).sort()).toEqual([...G5_KINDS].sort());
    for (const kind of ['takeover_export', 'takeover_keys', 'takeover_credentials'] as const) expect(counts[kind] / V5_SEEDS.length).toBeGreaterThan(0.02);
    for (const kind of ['login_alert', 'blocked_attempts', 'mfa_trouble', 'lockout', 'forgotten_password'] as const) expect(counts[kind] / V5_SEEDS.length).toBeGreaterThan(0.1);
    for (const kind of G5_KINDS) expect(counts[kind] / V5_SEEDS.length).toBeLessThan(0.22);
  });

  it('derives the priority from the urgency and the impact, and the team from the line, the addendum, the kind and the tier', () => {
    const levels = { 'true,true': 'urgent', 'true,false': 'high', 'false,true': 'normal', 'false,false': 'low' } as const;
    for (const t of V5_SEEDS.map(v5)) {
      const kind = kindOf(t);
      const triage = triageOf(t);
      const clock = Date.parse(t.clock!);
      const recent = figure(triage, /less than (\d+) hours ago/) * 3_600_000;
      const all = logins(t);
      const sinceOk = all.slice(all.map((l) => l.ok).lastIndexOf(true) + 1);
      const lastOk = all.filter((l) => l.ok).pop()?.at ?? 0;
      const reset = () => target(t).recent_events.some((e) => e.detail.startsWith('Password reset requested') && Date.parse(e.at) > lastOk);
      const urgency: Record<G5Kind, () => boolean> = {
        takeover_export: () => true,
        takeover_keys: () => true,
        takeover_credentials: () => true,
        password_exposed: () => strange(t).filter((l) => !l.ok && l.mfa).length >= 2,
        login_alert: () => clock - strange(t).find((l) => l.ok)!.at < recent,
        blocked_attempts: () => clock - strange(t).filter((l) => !l.ok).pop()!.at < recent,
        mfa_trouble: () => clock - sinceOk.filter((l) => l.mfa).pop()!.at < recent,
        lockout: reset,
        forgotten_password: reset,
      };
      const urgent = urgency[kind]();
      const critical = figure(notesOf(t), /Business, (\d+) seats/) >= figure(triage, /those with (\d+) or more seats/);
      expect([t.answer_key.target_ticket_id, t.answer_key.priority]).toEqual([t.answer_key.target_ticket_id, levels[`${urgent},${critical}`]]);
      const value = figure(notesOf(t), /annual contract value \$([\d,]+)/);
      const line = figure(triage, /is \$([\d,]+)\.00 or more belong to the account team/);
      const desk = target(t).customer.tier === 'standard' ? 'general_support' : 'technical_support';
      const team = value >= line ? 'vip_concierge' : /Security Assurance addendum signed/.test(notesOf(t)) ? 'security_ops' : (G5_DECISIONS[kind].team ?? desk);
      expect([t.answer_key.target_ticket_id, t.answer_key.team]).toEqual([t.answer_key.target_ticket_id, team]);
    }
  });

  it('asks no one decision (priority, team, resolution, kind) of more than 2.5% of instances, and each priority, team and resolution of at most 30%', () => {
    const share = (key: (t: Task) => string) => {
      const n = new Map<string, number>();
      for (const t of V5_SEEDS.map(v5)) n.set(key(t), (n.get(key(t)) ?? 0) + 1);
      return Math.max(...n.values()) / V5_SEEDS.length;
    };
    const k = (t: Task) => t.answer_key;
    expect(share((t) => `${k(t).priority} ${k(t).team} ${k(t).resolution.code} ${kindOf(t)}`)).toBeLessThanOrEqual(0.025);
    expect(share((t) => k(t).priority)).toBeLessThanOrEqual(0.3);
    expect(share((t) => k(t).team)).toBeLessThanOrEqual(0.3);
    expect(share((t) => k(t).resolution.code)).toBeLessThanOrEqual(0.3);
  });

  it("draws the customer's words apart from the kind: every subject and body sentence in every kind", () => {
    const said = new Map<string, Set<G5Kind>>();
    // (More seeds than the others: the takeovers are a few percent each.)
    for (const t of Array.from({ length: 1500 }, (_, seed) => v5(seed))) {
      const sentences = [target(t).subject, ...target(t).body.replace(/ [A-Z][a-z]+$/, '').split(/(?<=[.?!]) /)];
      for (const s of sentences) said.set(s, new Set([...(said.get(s) ?? []), kindOf(t)]));
    }
    for (const [sentence, kinds] of said) expect([sentence, kinds.size]).toEqual([sentence, G5_KINDS.length]);
  });

  it('credits "change it elsewhere" in the wordings replies use, and not its negation or an unrelated change', () => {
    const exposed = V5_SEEDS.map(v5).filter((t) => kindOf(t) === 'password_exposed').slice(0, 5);
    expect(exposed.length).toBe(5);
    const credited = [
      'Please change this password on any other service where you use it.',
      'Please change it on every other service where you use it.',
      'Please change the password on any other site or service that uses it.',
      'If you use that password anywhere else (email, other apps), please swap it out there as well.',
      'If that same password is used on any other sites or apps, please change it there too.',
      'If you use the same password anywhere else, please change it there too.',
      'Please also change the password on other services where you use it.',
      'Wherever else you have reused this password, please change it.',
    ];
    const refused = [
      'Do not change your password elsewhere.',
      'You do not need to change the password on other sites.',
      'We changed the password on your account.',
      'Change your password on our site now.',
      'Please update your other passwords.',
    ];
    // Judged as the current grader (version 7) judges a reply sent on the target ticket.
    const coveredNow = (t: Task, reply: string) => {
      const analysis = extractMentionsV7(reply, t.clock!, { policies: t.knowledge_base.map((a) => ({ title: a.title, body: a.body })) });
      return judgeClaimsV7(t.answer_key.reply_claims!, [analysis]).filter((v) => v.covered).map((v) => v.id);
    };
    for (const t of exposed) {
      for (const reply of credited) expect([reply, coveredNow(t, reply)]).toEqual([reply, ['change_password_elsewhere']]);
      for (const reply of refused) expect([reply, coveredNow(t, reply)]).toEqual([reply, []]);
    }
  });

  it('is solved at exactly 1.0 by the reference solver, every kind among the instances solved', () => {
    const kinds = new Set<G5Kind>();
    // (Solved episodes: at least 100, enough for every kind to turn up; 200 in CI's deeper run.)
    for (const seed of V5_SEEDS.slice(0, Math.max(100, Number(process.env.FAMILY_SEEDS ?? 60)))) {
      const t = v5(seed);
      const env = new AgentEnvironment(t, seed, 'dense');
      solver.solve(env);
      kinds.add(kindOf(t));
      expect({ seed, score: env.state.score_milli, penalties: grade(t, env.state).penalties }).toEqual({ seed, score: 1000, penalties: [] });
    }
    expect(kinds.size).toBe(G5_KINDS.length);
  });
});

describe('generator version 6: the support-tier desk from the instance\'s rota, the kinds, priorities and codes spread evenly', () => {
  const V6_SEEDS = Array.from({ length: 600 }, (_, seed) => seed);
  const drawn = new Map<number, Task>();
  const v6 = (seed: number) => drawn.get(seed) ?? drawn.set(seed, securityCompromisedAccountV6.generate(seed)).get(seed)!;
  const kindOf = (t: Task): G5Kind => {
    const title = t.knowledge_base.find((a) => a.id === t.answer_key.required_article_ids[0])!.title;
    return G5_KINDS.find((k) => KIND5_TITLES[k] === title)!;
  };
  const notesOf = (t: Task) => target(t).contract_notes.join(' ');
  const triageOf = (t: Task) => t.knowledge_base.find((a) => /which policy applies, priority and routing/.test(a.title))!.body;
  const figure = (text: string, re: RegExp) => Number(re.exec(text)![1].replace(/,/g, ''));
  const rotaOf = (t: Task) => {
    const m = /desk rota sends standard-tier customers to the (\w+) team, premium-tier customers to the (\w+) team and VIP-tier customers to the (\w+) team/.exec(triageOf(t))!;
    return { standard: m[1], premium: m[2], vip: m[3] } as Record<string, string>;
  };

  it("routes the kinds without a team of their own to the desk the instance's rota names for the tier, so the tier alone tells no team", () => {
    const desks = new Map<string, Map<string, number>>();
    for (const t of V6_SEEDS.map(v6)) {
      const kind = kindOf(t);
      const tier = target(t).customer.tier;
      const value = figure(notesOf(t), /annual contract value \$([\d,]+)/);
      const line = figure(triageOf(t), /is \$([\d,]+)\.00 or more belong to the account team/);
      const addendum = /Security Assurance addendum signed/.test(notesOf(t));
      const team = value >= line ? 'vip_concierge' : addendum ? 'security_ops' : (G5_DECISIONS[kind].team ?? rotaOf(t)[tier]);
      expect([t.answer_key.target_ticket_id, t.answer_key.team]).toEqual([t.answer_key.target_ticket_id, team]);
      if (value < line && !addendum && G5_DECISIONS[kind].team === null) {
        const byTier = desks.get(tier) ?? desks.set(tier, new Map()).get(tier)!;
        byTier.set(team, (byTier.get(team) ?? 0) + 1);
      }
    }
    for (const tier of ['standard', 'premium', 'vip']) {
      const byTier = desks.get(tier)!;
      const total = [...byTier.values()].reduce((a, b) => a + b, 0);
      for (const desk of ['general_support', 'technical_support']) expect([tier, desk, (byTier.get(desk) ?? 0) / total > 0.3]).toEqual([tier, desk, true]);
    }
  });

  it('words the support tier in the contract notes for every tier, in several ways', () => {
    const wordings = new Map<string, Set<string>>();
    for (const t of V6_SEEDS.map(v6)) {
      const tier = target(t).customer.tier;
      const note = target(t).contract_notes.find((n) => /support|Support/.test(n) && !/addendum/.test(n))!;
      expect([tier, note.toLowerCase().includes(tier)]).toEqual([tier, true]);
      wordings.set(tier, new Set([...(wordings.get(tier) ?? []), note]));
    }
    for (const tier of ['standard', 'premium', 'vip']) expect([tier, wordings.get(tier)!.size]).toEqual([tier, 4]);
  });

  it('asks no one decision (priority, team, resolution, kind) of more than 2.5% of instances, each priority and resolution of at most 31%, each team of at most 28%', () => {
    const share = (key: (t: Task) => string) => {
      const n = new Map<string, number>();
      for (const t of V6_SEEDS.map(v6)) n.set(key(t), (n.get(key(t)) ?? 0) + 1);
      return Math.max(...n.values()) / V6_SEEDS.length;
    };
    const k = (t: Task) => t.answer_key;
    expect(share((t) => `${k(t).priority} ${k(t).team} ${k(t).resolution.code} ${kindOf(t)}`)).toBeLessThanOrEqual(0.025);
    expect(share((t) => k(t).priority)).toBeLessThanOrEqual(0.31);
    expect(share((t) => k(t).team)).toBeLessThanOrEqual(0.28);
    expect(share((t) => k(t).resolution.code)).toBeLessThanOrEqual(0.31);
    expect(share((t) => kindOf(t))).toBeLessThanOrEqual(0.21);
  });

  it('credits the MFA-trouble verification rule in the words agents state it in, and not its negation', () => {
    const cases = V6_SEEDS.map(v6).filter((t) => kindOf(t) === 'mfa_trouble').slice(0, 3);
    expect(cases.length).toBe(3);
    const credited = [
      'We can only remove MFA after verifying your identity over a video call.',
      'Support removes MFA only after we have verified your identity on a video call.',
      "Before we remove MFA, we'll need to validate your identity on a video call.",
      "We'll need to verify you on a video call before we can switch MFA off.",
      'We remove MFA only after authenticating you on a video call.',
      'Our policy is that MFA is only removed after identity verification on a video call.',
    ];
    const refused = [
      "We don't need to verify your identity on a video call; we'll remove MFA right away.",
      "We won't verify you on a video call.",
      'We may verify your identity on a video call at some point, maybe.',
    ];
    // Judged as a new episode's grader (the current one) judges a reply sent on the target ticket, whichever version that is.
    const coveredNow = (t: Task, reply: string) => gradeReply(t, reply).details.filter((v) => v.covered).map((v) => v.id);
    for (const t of cases) {
      for (const reply of credited) expect([reply, coveredNow(t, reply)]).toEqual([reply, ['identity_verification']]);
      for (const reply of refused) expect([reply, coveredNow(t, reply)]).toEqual([reply, []]);
    }
  });

  it('is solved at exactly 1.0 by the reference solver, every kind among the instances solved', () => {
    const kinds = new Set<G5Kind>();
    for (const seed of V6_SEEDS.slice(0, Math.max(80, Number(process.env.FAMILY_SEEDS ?? 60)))) {
      const t = v6(seed);
      const env = new AgentEnvironment(t, seed, 'dense');
      solver.solve(env);
      kinds.add(kindOf(t));
      expect({ seed, score: env.state.score_milli, penalties: grade(t, env.state).penalties }).toEqual({ seed, score: 1000, penalties: [] });
    }
    expect(kinds.size).toBe(G5_KINDS.length);
  });
});

import type { ReplyDetailVerdict } from '../../grade-breakdown';
import type { EpisodeState, ReplyRecord } from '../../state';
import type { Task } from '../../task.schema';
import { judgeClaims, extractMentions, type People, type PolicyText, type ReplyAnalysis } from './claims';
import { compileLexicon } from './claims/lexicon';
import { CUSTOMER_IDENTIFIER } from './support-vocabulary';
import { loadAnalysis, storeAnalysis, type StoredReplyAnalysis } from './claims/stored-analysis';
import { containsPhrase } from './claims/phrases';

/** The replies on the ticket that needs action, judged as claims. */
export function judgeReplies(task: Task, state: EpisodeState): ReplyDetailVerdict[] {
  const replies = state.replies.filter((r) => r.ticket_id === task.answer_key.target_ticket_id);
  // Replies are only ever appended, and their records never change: the verdicts judged after the last one hold
  // until another is sent, so the steps in between do not judge again.
  const last = replies[replies.length - 1];
  const cached = last && judged.get(last);
  if (cached && cached.task === task && cached.count === replies.length) return cached.verdicts;
  const analyses = replies.map((r) => loadAnalysis(r.analysis ?? analyseReply(task, r.ticket_id, r.message)));
  const verdicts = judgeClaims(task.answer_key.reply_claims ?? [], analyses, compileLexicon(task.answer_key.lexicon)).map((v) => ({
    id: v.id,
    description: v.description,
    covered: v.covered,
    reason: v.covered ? null : (v.reason ?? 'not_stated'),
    sentence: v.sentence ?? null,
    reply_step: v.reply === undefined ? null : replies[v.reply].step,
  }));
  if (last) judged.set(last, { task, count: replies.length, verdicts });
  return verdicts;
}

const judged = new WeakMap<ReplyRecord, { task: Task; count: number; verdicts: ReplyDetailVerdict[] }>();

/**
 * The steps of the replies on the ticket that needs action that were over the reading budget (claims/budget.ts)
 * and so were not read: they earn nothing, and the grade says so.
 */
export function unreadableReplySteps(task: Task, state: EpisodeState): number[] {
  return state.replies
    .filter((r) => r.ticket_id === task.answer_key.target_ticket_id && loadAnalysis(r.analysis ?? analyseReply(task, r.ticket_id, r.message)).unreadable)
    .map((r) => r.step);
}

/** What is stored with a reply under grader version 3: its analysis, made once when it is sent. */
export function analyseReply(task: Task, ticketId: string, message: string): StoredReplyAnalysis {
  return storeAnalysis(extractMentions(message, task.clock ?? '', { policies: policiesOf(task, ticketId), people: peopleOf(task, ticketId), lexicon: compileLexicon(task.answer_key.lexicon) }));
}

/**
 * The sentence of a reply that names another customer of the inbox (a full name) or something that is only
 * theirs (an account, order or invoice), or null: their data told to this customer.
 */
export function disclosesOtherCustomer(task: Task, reply: ReplyRecord, analysis: ReplyAnalysis): string | null {
  const { ids, numbers, names } = othersOf(peopleOf(task, reply.ticket_id));
  for (const s of analysis.sentences) {
    const tokens = s.tokens.map(word);
    if (s.tokens.some((t) => ids.has(t)) || tokens.some((t) => numbers.has(t))) return s.text;
    if (names.some((name) => name.length > 0 && containsPhrase(tokens, name))) return s.text;
  }
  return null;
}

/** "Marcus Lee's duplicate": a possessive is still the name. */
const word = (t: string) => (t.endsWith('s') ? t.replace(POSSESSIVE, '') : t);
const POSSESSIVE = /['’]s$/;

/** What names another customer, worked out once per customer (every reply is asked). */
function othersOf(people: People): { ids: Set<string>; numbers: Set<string>; names: string[][] } {
  let others = othersByPeople.get(people);
  if (!others) {
    others = {
      ids: new Set(people.foreignIds.map((id) => id.toLowerCase())),
      // "INV-87991", "invoice 87991", "SO 77135": an id's number is theirs however it is written.
      numbers: new Set(people.foreignIds.map((id) => id.split('-').pop()!).filter((n) => /^\d{4,}$/.test(n))),
      names: people.others.filter((n) => n.includes(' ')).map((n) => n.toLowerCase().split(/\s+/)),
    };
    othersByPeople.set(people, others);
  }
  return others;
}

const othersByPeople = new WeakMap<People, ReturnType<typeof othersOf>>();

const peopleByTask = new WeakMap<Task, Map<string, People>>();
const IDENTIFIER = CUSTOMER_IDENTIFIER;

/**
 * The customer of the ticket replied to, the other customers in the inbox, and the identifiers (accounts, orders,
 * invoices) that appear only in other customers' tickets.
 */
function peopleOf(task: Task, ticketId: string): People {
  let byTicket = peopleByTask.get(task);
  if (!byTicket) peopleByTask.set(task, (byTicket = new Map()));
  let people = byTicket.get(ticketId);
  if (!people) {
    const ticket = task.inbox.find((t) => t.id === ticketId);
    const account = ticket?.customer.account;
    const names = (name: string) => [name, ...name.split(/\s+/)];
    const texts = (t: Task['inbox'][number]) => [t.customer.account, t.subject, t.body, ...t.contract_notes, ...t.recent_events.map((e) => e.detail)].join(' ');
    const own = new Set(task.inbox.filter((t) => t.customer.account === account).flatMap((t) => texts(t).match(IDENTIFIER) ?? []));
    const others = task.inbox.filter((t) => t.customer.account !== account);
    people = {
      customer: ticket ? names(ticket.customer.name) : [],
      others: [...new Set(others.flatMap((t) => names(t.customer.name)))],
      foreignIds: [...new Set(others.flatMap((t) => texts(t).match(IDENTIFIER) ?? []))].filter((id) => !own.has(id)),
    };
    byTicket.set(ticketId, people);
  }
  return people;
}


const policyTexts = new WeakMap<Task, Map<string, PolicyText[]>>();

/**
 * The texts a reply must not pass off as its own: the knowledge base and the ticket's contract notes. One array
 * per task and ticket, so the claim engine prepares them once (it caches by identity).
 */
function policiesOf(task: Task, ticketId: string): PolicyText[] {
  let byTicket = policyTexts.get(task);
  if (!byTicket) policyTexts.set(task, (byTicket = new Map()));
  let texts = byTicket.get(ticketId);
  if (!texts) {
    const ticket = task.inbox.find((t) => t.id === ticketId);
    texts = [...task.knowledge_base.map((a) => ({ title: a.title, body: a.body })), ...(ticket?.contract_notes ?? []).map((body) => ({ body }))];
    byTicket.set(ticketId, texts);
  }
  return texts;
}

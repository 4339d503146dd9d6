import { canonicalAction, type Action } from './actions';
import { grade, type GradeBreakdown } from './grader';
import type { GraderVersion } from './grader-version';
import { graderModule, graderOfState, graderVersionOf } from './graders';
import { discriminates, isSearchable, searchPolicies } from './policy-search';
import { seededShuffle } from './seeded-order';
import { emptyRecord, ticketStateOf, type EpisodeState, type TicketState } from './state';
import type { Task } from './task.schema';
import { RESOLUTIONS_ALLOWING_AMOUNT, RESOLUTIONS_REQUIRING_AMOUNT } from './vocabulary';

export class EpisodeFinishedError extends Error {
  constructor() {
    super('the episode is finished; start a new one with reset');
  }
}

export interface StepResult {
  state: EpisodeState;
  /** The new state's grade (its score is `state.score_milli`): callers need not grade it again. */
  grade: GradeBreakdown;
  reward_milli: number;
  done: boolean;
  error: string | null;
}

/**
 * Starts an episode. Pure: the same task, seed and grader version always give the same state. The grader version
 * defaults to the one the task's reply details are written for; a replay passes the version the episode stored.
 */
export function reset(task: Task, seed: number, graderVersion: GraderVersion = graderVersionOf(task)): EpisodeState {
  const grader = graderModule(graderVersion);
  if (!grader.grades(task)) {
    throw new Error(`task ${task.id} declares its reply details for grader version ${graderVersionOf(task)}, not ${graderVersion}`);
  }
  const tickets = emptyRecord<TicketState>();
  for (const ticket of task.inbox) {
    tickets[ticket.id] = { priority: ticket.priority, team: ticket.team, status: ticket.status };
  }
  const state: EpisodeState = {
    task_id: task.id,
    // What the version records (nothing for version 1, so the states of episodes from earlier releases replay byte for byte).
    ...grader.stateFields(),
    seed,
    max_steps: task.max_steps,
    inbox_order: seededShuffle(
      task.inbox.map((t) => t.id),
      seed,
    ),
    step_count: 0,
    done: false,
    status: 'active',
    active_ticket_id: null,
    opened_ticket_ids: [],
    tickets,
    surfaced_article_ids: [],
    last_search: null,
    replies: [],
    resolution: null,
    history: [],
    score_milli: 0,
    last_action_error: null,
  };
  state.score_milli = grade(task, state).score_milli;
  return state;
}

/**
 * Applies one action. Pure: returns a new state and never mutates its input. A well-formed action that cannot
 * apply (unknown ticket, no ticket open) still uses a step, earns nothing and says why in `error`.
 */
export function step(task: Task, previous: EpisodeState, rawAction: Action): StepResult {
  if (previous.done) throw new EpisodeFinishedError();
  const action = canonicalAction(rawAction);
  const state = copyForStep(previous);
  state.step_count += 1;

  const { outcome, error } = apply(task, state, action);

  if (!state.done && state.step_count >= state.max_steps) {
    state.done = true;
    state.status = 'out_of_steps';
  }
  const breakdown = grade(task, state);
  const score = breakdown.score_milli;
  const reward = score - previous.score_milli;
  state.score_milli = score;
  state.last_action_error = error;
  state.history.push({
    step: state.step_count,
    action,
    outcome,
    error,
    reward_milli: reward,
    score_after_milli: score,
  });
  return { state, grade: breakdown, reward_milli: reward, done: state.done, error };
}

/**
 * A copy `apply` may mutate without touching `previous`: new containers for everything a step changes in place
 * (ticket fields, the lists it appends to); the records inside those lists are never mutated, only appended or
 * replaced, so they are shared. A deep clone cost a quarter of a step.
 */
function copyForStep(previous: EpisodeState): EpisodeState {
  const tickets = emptyRecord<TicketState>();
  for (const [id, ticket] of Object.entries(previous.tickets)) tickets[id] = { ...ticket };
  return {
    ...previous,
    opened_ticket_ids: [...previous.opened_ticket_ids],
    tickets,
    surfaced_article_ids: [...previous.surfaced_article_ids],
    replies: [...previous.replies],
    history: [...previous.history],
    ...(previous.acts ? { acts: [...previous.acts] } : {}),
    ...(previous.consulted ? { consulted: [...previous.consulted] } : {}),
  };
}

interface Applied {
  outcome: string;
  error: string | null;
}

const failed = (error: string): Applied => ({ outcome: 'not applied', error });

/** Mutates the cloned state for one action. */
function apply(task: Task, state: EpisodeState, action: Action): Applied {
  switch (action.type) {
    case 'open_ticket': {
      if (ticketStateOf(state, action.ticket_id) === undefined) {
        return failed(`no ticket "${action.ticket_id}" in the inbox`);
      }
      state.active_ticket_id = action.ticket_id;
      if (!state.opened_ticket_ids.includes(action.ticket_id)) state.opened_ticket_ids.push(action.ticket_id);
      return { outcome: `opened ticket ${action.ticket_id}`, error: null };
    }
    case 'search_policy': {
      if (!isSearchable(action.query)) return failed('the query has no searchable words');
      const results = searchPolicies(task, action.query);
      state.last_search = { query: action.query, results };
      // Version 2: the article a query puts on top counts as consulted, if the query tells articles apart.
      if (state.consulted && results.length > 0 && discriminates(action.query, task.instruction) && !state.consulted.includes(results[0].article_id)) {
        state.consulted.push(results[0].article_id);
      }
      for (const hit of results) {
        if (!state.surfaced_article_ids.includes(hit.article_id)) state.surfaced_article_ids.push(hit.article_id);
      }
      return { outcome: `search returned ${results.length} article(s)`, error: null };
    }
    case 'set_priority':
      return changeActiveTicket(state, 'set the priority', (ticket, ticketId) => {
        ticket.priority = action.priority;
        state.acts?.push({ step: state.step_count, ticket_id: ticketId, kind: 'priority', value: action.priority });
        return `priority set to ${action.priority}`;
      });
    case 'route_ticket':
      return changeActiveTicket(state, 'route a ticket', (ticket, ticketId) => {
        ticket.team = action.team;
        state.acts?.push({ step: state.step_count, ticket_id: ticketId, kind: 'team', value: action.team });
        return `routed to ${action.team}`;
      });
    case 'send_reply':
      return changeActiveTicket(state, 'reply', (ticket, ticketId) => {
        const analysis = graderOfState(state).analyseReply?.(task, ticketId, action.message);
        state.replies.push({ step: state.step_count, ticket_id: ticketId, message: action.message, ...(analysis ? { analysis } : {}) });
        state.acts?.push({ step: state.step_count, ticket_id: ticketId, kind: 'reply' });
        if (ticket.status === 'open') ticket.status = 'pending';
        return `reply sent on ticket ${ticketId}`;
      });
    case 'resolve_ticket': {
      const problem = amountProblem(action);
      if (problem) return failed(problem);
      return changeActiveTicket(state, 'resolve a ticket', (ticket, ticketId) => {
        ticket.status = 'resolved';
        state.acts?.push({ step: state.step_count, ticket_id: ticketId, kind: 'resolve' });
        state.resolution = {
          step: state.step_count,
          ticket_id: ticketId,
          code: action.resolution,
          ...(action.amount === undefined ? {} : { amount: action.amount }),
        };
        state.done = true;
        state.status = 'resolved';
        return `ticket ${ticketId} resolved as ${action.resolution}`;
      });
    }
  }
}

/** Priority, routing, replies and resolution act on the open ticket, and never on one already resolved. */
function changeActiveTicket(
  state: EpisodeState,
  what: string,
  change: (ticket: TicketState, ticketId: string) => string,
): Applied {
  const ticketId = state.active_ticket_id;
  // An episode stored by an earlier release may name a ticket that is not in the inbox (e.g. "__proto__").
  const ticket = ticketId === null ? undefined : ticketStateOf(state, ticketId);
  if (ticketId === null || ticket === undefined) return failed(`open a ticket before you ${what}`);
  if (ticket.status === 'resolved') return failed(`ticket ${ticketId} is already resolved`);
  return { outcome: change(ticket, ticketId), error: null };
}

/** Validation rejects these at the HTTP edge; the engine checks again so it is safe on its own. */
function amountProblem(action: Extract<Action, { type: 'resolve_ticket' }>): string | null {
  if (RESOLUTIONS_REQUIRING_AMOUNT.includes(action.resolution) && action.amount === undefined) {
    return `resolution ${action.resolution} needs an amount`;
  }
  if (!RESOLUTIONS_ALLOWING_AMOUNT.includes(action.resolution) && action.amount !== undefined) {
    return `resolution ${action.resolution} takes no amount`;
  }
  return null;
}

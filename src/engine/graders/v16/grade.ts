import type { ComponentGrade, ComponentName, ComponentWeights, GradeBreakdown, ReplyDetailVerdict } from '../../grade-breakdown';
import type { EpisodeState } from '../../state';
import type { Task } from '../../task.schema';
import { penaltiesOf } from './penalties';
import { judgeReplies, unreadableReplySteps } from './reply-grading';

/** Version 2's reward weights in milli-points; they sum to exactly 1000, so a perfect episode scores 1.0. */
export const WEIGHTS = {
  opened_target: 50,
  policy_consulted: 100,
  priority: 150,
  routing: 200,
  reply_coverage: 200,
  resolution: 300,
} as const satisfies ComponentWeights;

/** Integer share of a weight, exact when the whole is earned. */
function share(weight: number, got: number, of: number): number {
  return of === 0 ? 0 : Math.floor((weight * got) / of);
}

/**
 * Scores the state as it stands under version 3. Explanations never reveal the expected answer, so an agent that
 * calls the grader mid-episode learns whether it is right, not what is right.
 */
export function grade(task: Task, state: EpisodeState): GradeBreakdown {
  const key = task.answer_key;
  const target = key.target_ticket_id;
  const targetState = state.tickets[target];
  const components: ComponentGrade[] = [];
  const add = (name: ComponentName, earned: number, why: string) =>
    components.push({ name, weight_milli: WEIGHTS[name], earned_milli: earned, why });

  const opened = state.opened_ticket_ids.includes(target);
  add(
    'opened_target',
    opened ? WEIGHTS.opened_target : 0,
    opened ? 'the ticket that needs action was opened' : 'the ticket that needs action has not been opened',
  );

  // An article counts when a query that tells articles apart put it on top.
  const consulted = state.consulted ?? [];
  const found = key.required_article_ids.filter((id) => consulted.includes(id)).length;
  const required = key.required_article_ids.length;
  add(
    'policy_consulted',
    share(WEIGHTS.policy_consulted, found, required),
    `${found} of ${required} required policy article(s) came out on top of a search that tells articles apart`,
  );

  // A decision counts only once the agent has opened the ticket, and the first value it sets is the one that
  // counts, so trying values until the reward moves does not pay.
  const decided = (kind: 'priority' | 'team', preset: string | null): string | null => {
    if (!opened) return null;
    const first = (state.acts ?? []).find((act) => act.ticket_id === target && act.kind === kind);
    return first ? (first.value ?? null) : preset;
  };
  const priority = decided('priority', targetState.priority);
  const priorityRight = priority === key.priority;
  add(
    'priority',
    priorityRight ? WEIGHTS.priority : 0,
    priority === null
      ? 'the ticket that needs action has not been opened'
      : priorityRight
        ? `priority "${priority}" is correct`
        : `priority "${priority}" is not what this case calls for (the first priority set is the one that counts)`,
  );

  const team = decided('team', targetState.team);
  const routingRight = team === key.team;
  add(
    'routing',
    routingRight ? WEIGHTS.routing : 0,
    team === null
      ? 'the ticket has not been routed to a team'
      : routingRight
        ? `routed to "${team}", the right team`
        : `routed to "${team}", which is not the team that owns this case (the first routing is the one that counts)`,
  );

  const details = judgeReplies(task, state);
  const covered = details.filter((v) => v.covered).length;
  add(
    'reply_coverage',
    share(WEIGHTS.reply_coverage, covered, details.length),
    state.replies.every((r) => r.ticket_id !== target)
      ? 'no reply has been sent on the ticket that needs action'
      : // Why the others miss only once the episode has ended: mid-episode, "1 not a sentence" would tell an agent
        // probing with candidate values which one matched.
        `${covered} of ${details.length} required detail(s) told to the customer${state.done ? missSummary(details) : ''}` +
          unreadableNote(unreadableReplySteps(task, state)),
  );

  add('resolution', ...gradeResolution(task, state));

  // Penalties come off what was earned; the score stays within [0, 1], and a penalty taken at 0 is still owed.
  const penalties = penaltiesOf(task, state);
  const earned = components.reduce((sum, c) => sum + c.earned_milli, 0);
  const owed = penalties.reduce((sum, p) => sum + p.penalty_milli, 0);
  const score = Math.max(0, Math.min(1000, earned - owed));
  return { score_milli: score, grader_version: 16, components, reply_details: details, penalties };
}

/**
 * "; the reply at step 4 is unreadable: ...": a reply over the reading budget was not read, so none of its details
 * count. Said while the episode runs too: it tells the agent nothing about the answer, only that the reply was not read.
 */
function unreadableNote(steps: number[]): string {
  if (steps.length === 0) return '';
  const [which, its] = steps.length === 1 ? [`the reply at step ${steps[0]} is`, 'its'] : [`the replies at steps ${steps.join(', ')} are`, 'their'];
  return `; ${which} unreadable: over the reading budget (too many words in a sentence with no full stop or line break), so none of ${its} details count`;
}

/** "; 1 negated, 1 not stated": why the others are missing, without saying what they are. */
function missSummary(details: ReplyDetailVerdict[]): string {
  const counts = new Map<string, number>();
  for (const d of details) if (d.reason) counts.set(d.reason, (counts.get(d.reason) ?? 0) + 1);
  if (counts.size === 0) return '';
  return '; ' + [...counts].map(([reason, n]) => `${n} ${reason.replace(/_/g, ' ')}`).join(', ');
}

function gradeResolution(task: Task, state: EpisodeState): [number, string] {
  const expected = task.answer_key.resolution;
  const actual = state.resolution;
  if (!actual) return [0, 'the case has not been resolved'];
  if (actual.ticket_id !== task.answer_key.target_ticket_id) return [0, 'a different ticket was resolved'];
  if (actual.code !== expected.code) return [0, `resolution "${actual.code}" is not the right outcome for this case`];
  if (expected.amount !== undefined && toCents(actual.amount) !== toCents(expected.amount)) {
    return [0, `resolution "${actual.code}" is right but the amount is wrong`];
  }
  return [WEIGHTS.resolution, `resolved as "${actual.code}" with the right parameters`];
}

function toCents(amount: number | undefined): number | null {
  return amount === undefined ? null : Math.round(amount * 100);
}

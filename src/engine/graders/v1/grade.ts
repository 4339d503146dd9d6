import type { ComponentGrade, ComponentName, ComponentWeights, GradeBreakdown, ReplyDetailVerdict } from '../../grade-breakdown';
import type { EpisodeState } from '../../state';
import type { Task } from '../../task.schema';
import { judgeReplyDetails } from './reply-matching';

/** Version 1's reward weights in milli-points; they sum to exactly 1000, so a perfect episode scores 1.0. */
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
 * Scores the state as it stands under version 1 (release 0.1's grader): an article counts once it surfaced in a
 * search, the ticket's priority and team as they stand count, and reply details are phrase lists. No penalties.
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

  const found = key.required_article_ids.filter((id) => state.surfaced_article_ids.includes(id)).length;
  const required = key.required_article_ids.length;
  add('policy_consulted', share(WEIGHTS.policy_consulted, found, required), `${found} of ${required} required policy article(s) surfaced in search results`);

  const priority: string | null = targetState.priority;
  const priorityRight = priority === key.priority;
  add(
    'priority',
    priorityRight ? WEIGHTS.priority : 0,
    priority === null
      ? 'the ticket that needs action has not been opened'
      : priorityRight
        ? `priority "${priority}" is correct`
        : `priority "${priority}" is not what this case calls for`,
  );

  const team = targetState.team;
  const routingRight = team === key.team;
  add(
    'routing',
    routingRight ? WEIGHTS.routing : 0,
    team === null ? 'the ticket has not been routed to a team' : routingRight ? `routed to "${team}", the right team` : `routed to "${team}", which is not the team that owns this case`,
  );

  const details = judgeReplies(task, state);
  const covered = details.filter((v) => v.covered).length;
  add(
    'reply_coverage',
    share(WEIGHTS.reply_coverage, covered, details.length),
    state.replies.every((r) => r.ticket_id !== target)
      ? 'no reply has been sent on the ticket that needs action'
      : `${covered} of ${details.length} required detail(s) told to the customer${state.done ? missSummary(details) : ''}`,
  );

  add('resolution', ...gradeResolution(task, state));

  const earned = components.reduce((sum, c) => sum + c.earned_milli, 0);
  return { score_milli: Math.max(0, Math.min(1000, earned)), grader_version: 1, components, reply_details: details, penalties: [] };
}

/** The replies on the ticket that needs action, judged against the task's phrase lists. */
function judgeReplies(task: Task, state: EpisodeState): ReplyDetailVerdict[] {
  const replies = state.replies.filter((r) => r.ticket_id === task.answer_key.target_ticket_id);
  return judgeReplyDetails(task.answer_key.reply_details ?? [], replies.map((r) => r.message)).map((v) => ({
    id: v.id,
    description: v.description,
    covered: v.covered,
    reason: v.covered ? null : v.contradicted ? 'contradicted' : 'not_stated',
    sentence: null,
    reply_step: null,
  }));
}

/** "; 1 contradicted, 1 not stated": why the others are missing, without saying what they are. */
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

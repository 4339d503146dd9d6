import { ConflictError } from '../common/errors/domain-errors';
import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import { grade } from '../engine/grader';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import { presentActionLog, presentComponents, presentObservation, presentPenalties, presentReplyDetails, toPoints, type ActionLogRecord, type FeedbackMode } from '../episodes';
import type { EpisodeStepDto, StateChangeDto } from './dto/episode-step.dto';
import { replayableVersion } from './replay';

/** What an episode's step view needs of its row. */
export interface SteppedEpisode {
  id: string;
  seed: number;
  graderVersion: number;
  feedback: string;
  stepCount: number;
}

/**
 * The episode just after its `n`-th logged action (0: as reset left it): the action-log row, the observation the
 * agent saw, what the step changed and the grade then. The action log stores no observations, so the logged actions
 * are replayed through the engine under the episode's own grader version; replay is deterministic, so this is what
 * the agent saw (GET /episodes/{id}/verify says whether the log replays to the stored record).
 */
export function episodeStep(task: Task, episode: SteppedEpisode, rows: ActionLogRecord[], n: number): EpisodeStepDto {
  const version = replayableVersion(task, episode.graderVersion);
  if (version === null) {
    throw new ConflictError(`episode "${episode.id}" cannot be replayed: its task version cannot be graded with its grader version ${episode.graderVersion}`);
  }
  let before: EpisodeState = reset(task, episode.seed, version);
  let after = before;
  for (const row of rows.slice(0, n)) {
    if (after.done) break;
    before = after;
    after = step(task, after, JSON.parse(row.actionJson) as Action).state;
  }
  const breakdown = grade(task, after);
  const row = n === 0 ? undefined : rows[n - 1];
  return {
    episode_id: episode.id,
    step: n,
    step_count: episode.stepCount,
    entry: row === undefined ? null : presentActionLog([row])[0],
    observation: presentObservation(task, after, episode.feedback as FeedbackMode),
    changes: n === 0 ? [] : changesBetween(before, after),
    score: toPoints(after.score_milli),
    done: after.done,
    components: presentComponents(breakdown),
    penalties: presentPenalties(breakdown),
    reply_details: presentReplyDetails(breakdown, true),
  };
}

/** What one step changed, in a fixed order: the open ticket, each ticket's fields, replies, resolution, search, status. */
export function changesBetween(before: EpisodeState, after: EpisodeState): StateChangeDto[] {
  const changes: StateChangeDto[] = [];
  const change = (field: StateChangeDto['field'], ticketId: string | null, was: string | null, now: string | null) => {
    if (was !== now) changes.push({ field, ticket_id: ticketId, before: was, after: now });
  };
  change('active_ticket', null, before.active_ticket_id, after.active_ticket_id);
  for (const ticketId of Object.keys(after.tickets)) {
    const was = before.tickets[ticketId];
    const now = after.tickets[ticketId];
    change('priority', ticketId, was.priority, now.priority);
    change('team', ticketId, was.team, now.team);
    change('status', ticketId, was.status, now.status);
  }
  for (const reply of after.replies.slice(before.replies.length)) change('reply', reply.ticket_id, null, reply.message);
  if (before.resolution === null && after.resolution !== null) {
    const { ticket_id, code, amount } = after.resolution;
    change('resolution', ticket_id, null, amount === undefined ? code : `${code} (${amount})`);
  }
  // A search is a change even when it repeats the last query (the results are shown again).
  const searched = after.history.at(-1)?.action.type === 'search_policy' && after.last_search !== null;
  if (searched) changes.push({ field: 'search', ticket_id: null, before: before.last_search?.query ?? null, after: after.last_search!.query });
  change('episode_status', null, before.status, after.status);
  return changes;
}

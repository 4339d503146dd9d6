import { randomInt, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConflictError, InvalidFieldError, NotFoundError } from '../common/domain-errors';
import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import { grade } from '../engine/grader';
import { observe } from '../engine/observation';
import { TaskCatalog, UnknownTaskError } from '../tasks/task-catalog.service';
import type { ResetResponseDto, StepResponseDto, EpisodeStateDto, GradeResponseDto } from './dto/episode-responses.dto';
import { MAX_SEED, type ResetRequestDto } from './dto/reset-request.dto';
import { EpisodeRepository, type EpisodeRecord } from './episode.repository';
import { presentGrade, presentState, presentStep, toPoints } from './episode.presenter';

/** The task an empty `POST /reset` starts. */
export const DEFAULT_TASK_ID = 'billing_duplicate_charge';

@Injectable()
export class EpisodesService {
  constructor(
    private readonly tasks: TaskCatalog,
    private readonly episodes: EpisodeRepository,
  ) {}

  async reset(tenantId: string, request: ResetRequestDto): Promise<ResetResponseDto> {
    const { task, version } = this.latestTask(request.task_id ?? DEFAULT_TASK_ID);
    const seed = request.seed ?? randomInt(0, MAX_SEED);
    const state = reset(task, seed);
    const episode = await this.episodes.create(tenantId, {
      id: randomUUID(),
      taskId: task.id,
      taskVersion: version,
      seed,
      agent: request.agent ?? null,
      runLabel: request.run_label ?? null,
      tags: [...new Set(request.tags ?? [])].sort(),
      state,
      grade: grade(task, state),
    });
    return {
      episode_id: episode.id,
      observation: observe(task, state),
      reward: 0,
      done: false,
      info: {
        task_id: task.id,
        task_version: version,
        seed,
        max_steps: state.max_steps,
        score: toPoints(state.score_milli),
        status: state.status,
        agent: episode.agent,
        run_label: episode.runLabel,
        tags: episode.tags,
      },
    };
  }

  async step(tenantId: string, episodeId: string, action: Action): Promise<StepResponseDto> {
    // The task version never changes for an episode, so it can be loaded before the serialized step.
    const task = await this.taskOf(await this.require(tenantId, episodeId));
    let rewardMilli = 0;
    const episode = await this.episodes.applyStep(tenantId, episodeId, (current) => {
      if (current.state.done) {
        throw new ConflictError(`episode "${episodeId}" is finished (${current.state.status}); start a new one with POST /reset`);
      }
      const result = step(task, current.state, action);
      rewardMilli = result.reward_milli;
      return {
        state: result.state,
        grade: grade(task, result.state),
        entry: result.state.history[result.state.history.length - 1],
      };
    });
    return presentStep(task, episode, rewardMilli);
  }

  async state(tenantId: string, episodeId: string): Promise<EpisodeStateDto> {
    const episode = await this.require(tenantId, episodeId);
    const task = await this.taskOf(episode);
    const actions = await this.episodes.listActions(tenantId, episodeId);
    return presentState(task, episode, grade(task, episode.state), actions);
  }

  async grade(tenantId: string, episodeId: string): Promise<GradeResponseDto> {
    const episode = await this.require(tenantId, episodeId);
    return presentGrade(episode, grade(await this.taskOf(episode), episode.state));
  }

  private latestTask(taskId: string) {
    try {
      return this.tasks.latest(taskId);
    } catch (error) {
      if (error instanceof UnknownTaskError) throw new InvalidFieldError('task_id', error.message);
      throw error;
    }
  }

  private async require(tenantId: string, episodeId: string): Promise<EpisodeRecord> {
    const episode = await this.episodes.find(tenantId, episodeId);
    if (!episode) throw new NotFoundError(`no episode "${episodeId}"`);
    return episode;
  }

  private taskOf(episode: EpisodeRecord) {
    return this.tasks.version(episode.taskId, episode.taskVersion);
  }
}

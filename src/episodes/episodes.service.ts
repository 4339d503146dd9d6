import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson, sha256Hex } from '../common/canonical-json';
import { ConflictError, InvalidFieldError, NotFoundError, ValidationFailedError } from '../common/errors/domain-errors';
import { codePointLength } from '../common/field-rules';
import { KeyedSerializer } from '../common/keyed-serializer';
import type { EpisodeCaller } from '../access/principal';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Metrics, type ResetTransport, type Transport } from '../metrics';
import { canonicalAction, type Action } from '../engine/actions';
import { readLength } from '../engine/graders/v2/claims';
import { reset, step } from '../engine/engine';
import { grade } from '../engine/grader';
import type { Observation } from '../engine/observation';
import type { Task } from '../engine/task.schema';
import { privateSplitKeyIdOf } from '../tasks/private-split';
import { TaskCatalog, UnknownTaskError } from '../tasks/task-catalog.service';
import type { EpisodeStateDto, GradeResponseDto, ResetResponseDto, StepResponseDto } from './dto/episode-responses.dto';
import { MAX_SEED, type ResetRequestDto } from './dto/reset-request.dto';
import { cellNamedBy, cellOfRun, RunCells } from './run-cells/run-cells';
import { CellTakenError } from './run-cells/run-cell-statements';
import type { GraderVersion } from '../engine/grader-version';
import { EpisodeRepository, StaleEpisodeError, type EpisodeRecord, type FeedbackMode } from './episode.repository';
import { SPLIT_RULE, generatorVersionId, seedIn, splitOf } from '../families';
import { gradeViewFor, presentGrade, presentObservation, presentReset, presentState, presentStep } from './episode.presenter';

/**
 * How often a step raced by another writer (another replica stepping the same episode) is computed again before
 * the client is told to retry (409), and the longest random pause before an attempt: two replicas that keep
 * reading the same row at the same moment fall out of step, so one of them wins each round.
 */
const MAX_STEP_ATTEMPTS = 12;
const MAX_RETRY_PAUSE_MS = 20;

/** How often a reset taking a run's next cell tries another when a concurrent reset claimed its pick first. */
const MAX_CLAIM_ATTEMPTS = 20;

/** The task an empty `POST /reset` starts. */
export const DEFAULT_TASK_ID = 'billing_duplicate_charge';

@Injectable()
export class EpisodesService {
  /** Steps of one episode (as its caller names it), one at a time. */
  private readonly stepsInOrder = new KeyedSerializer();

  constructor(
    private readonly tasks: TaskCatalog,
    private readonly episodes: EpisodeRepository,
    private readonly runCells: RunCells,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Starts an episode; `transport` is what the reset came by, for the metrics. */
  async reset(caller: EpisodeCaller, request: ResetRequestDto, transport: ResetTransport = 'http'): Promise<ResetResponseDto> {
    if (request.run_id !== undefined) return this.resetInRun(caller, request, request.run_id, transport);
    if (request.trial !== undefined) throw new InvalidFieldError('trial', 'trial names a cell of an evaluation run: give run_id too');
    const { task, version, seed, feedback, splitKeyId } = this.instanceFor(request);
    const state = reset(task, seed);
    const episode = await this.episodes.create(
      caller.tenantId,
      {
        cell: null,
        id: request.episode_id ?? randomUUID(),
        apiKeyId: caller.keyId,
        idSpace: keySpaceOf(caller) === null ? 'tenant' : 'key',
        taskId: task.id,
        taskVersion: version,
        feedback,
        seed,
        splitSource: splitKeyId === null ? 'public' : 'private',
        splitKeyId,
        agent: request.agent ?? null,
        runLabel: request.run_label ?? null,
        tags: [...new Set(request.tags ?? [])].sort(),
        state,
        grade: grade(task, state),
      },
      this.config.maxActiveEpisodesPerTenant,
    );
    this.metrics.resetApplied(transport, caller.tenantId);
    return presentReset(task, asSeenBy(caller, episode), gradeViewFor(caller, episode));
  }

  /**
   * A reset that fills a cell of an evaluation run: the cell named, or the run's next one. The run decides the
   * instance (its pinned task version and grader version), the feedback and the agent; the cell is claimed in the
   * same write as the episode is created. Taking the next cell races other workers of the run: a cell claimed
   * between the look and the write is passed over for the next one.
   */
  private async resetInRun(caller: EpisodeCaller, request: ResetRequestDto, runId: string, transport: ResetTransport): Promise<ResetResponseDto> {
    const named = cellNamedBy(request, runId);
    const run = await this.runCells.runFor(caller, runId);
    const namedCell = named === null ? null : cellOfRun(named, run);
    for (let attempt = 1; ; attempt++) {
      const cell = namedCell ?? (await this.runCells.nextCell(caller.tenantId, run.id, attempt));
      if (cell === null) throw new ConflictError(`run "${run.id}" has no cell left to fill: every cell is finished or being filled (GET /runs/${run.id})`);
      const task = await this.tasks.fetchInstance(cell.taskId, run.versions[cell.taskId], cell.seed, null);
      const state = reset(task, cell.seed, run.graderVersion as GraderVersion);
      try {
        const episode = await this.episodes.create(
          caller.tenantId,
          {
            cell,
            id: request.episode_id ?? randomUUID(),
            apiKeyId: caller.keyId,
            idSpace: keySpaceOf(caller) === null ? 'tenant' : 'key',
            taskId: cell.taskId,
            taskVersion: run.versions[cell.taskId],
            feedback: run.feedback,
            seed: cell.seed,
            splitSource: 'public',
            splitKeyId: null,
            agent: run.agent,
            runLabel: runLabelOf(run.id, cell.trial),
            tags: [...new Set(request.tags ?? [])].sort(),
            state,
            grade: grade(task, state),
          },
          this.config.maxActiveEpisodesPerTenant,
        );
        this.metrics.resetApplied(transport, caller.tenantId);
        return presentReset(task, asSeenBy(caller, episode), gradeViewFor(caller, episode));
      } catch (error) {
        if (!(error instanceof CellTakenError) || named !== null || attempt === MAX_CLAIM_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * The instance a reset starts: by default one the task's family draws from the seed (a seed drawn from `split`
   * when none is given); the task file's fixed instance with variant "canonical". Test-split instances run with
   * feedback "final", always. Split "private" is the private test split: a test seed, its instance drawn under the
   * private-split key (`splitKeyId`, null for every other instance).
   */
  private instanceFor(request: ResetRequestDto): { task: Task; version: string; seed: number; feedback: FeedbackMode; splitKeyId: string | null } {
    const taskId = request.task_id ?? DEFAULT_TASK_ID;
    const latest = this.latestTask(taskId);
    if (request.variant === 'canonical') {
      if (request.split !== undefined) {
        throw conflicting(['variant', 'split'], 'the canonical instance is in no split; omit split, or use variant "generated"');
      }
      return { task: latest.task, version: latest.version, seed: request.seed ?? randomInt(0, MAX_SEED), feedback: request.feedback ?? 'dense', splitKeyId: null };
    }
    const family = this.tasks.family(taskId);
    if (!family) throw new InvalidFieldError('variant', `task "${taskId}" has no generator; use variant "canonical"`);
    const splitKeyId = request.split === 'private' ? this.privateSplitKeyId() : null;
    const seedSplit = request.split === 'private' ? 'test' : request.split;
    const seed = request.seed ?? seedIn(seedSplit ?? 'train', (max) => randomInt(0, max + 1), MAX_SEED);
    const split = splitOf(seed);
    if (seedSplit !== undefined && seedSplit !== split) {
      const asked = request.split === 'private' ? 'test seed, which the private split draws on' : `${seedSplit} seed`;
      throw conflicting(['seed', 'split'], `seed ${seed} is a ${split} seed, not a ${asked} (${SPLIT_RULE})`);
    }
    if (split === 'test' && request.feedback === 'dense') {
      const fields = request.seed === undefined ? ['split', 'feedback'] : ['seed', 'feedback'];
      throw conflicting(fields, `seed ${seed} is a test seed: test-split instances (private ones too) run with feedback "final"`);
    }
    const version = generatorVersionId(family.generatorVersion);
    const task = this.tasks.instance(taskId, version, seed, splitKeyId);
    return { task, version, seed, feedback: request.feedback ?? (split === 'test' ? 'final' : 'dense'), splitKeyId };
  }

  /** The key new private-split episodes are drawn with; a server without one refuses split "private" (422). */
  private privateSplitKeyId(): string {
    const keyId = this.tasks.privateSplitKeyId();
    if (keyId === null) {
      throw new InvalidFieldError('split', 'this server has no private test split (PRIVATE_SPLIT_KEY is not set); use split "test" for the public one');
    }
    return keyId;
  }

  /**
   * Applies one action. With a `requestId`, the step is idempotent: a retry of the same request (same id, same
   * action) gets the original response and applies nothing; the same id with another action is a 409.
   *
   * One way down: the episode is found and the caller's access decided here, the step computed here, and the
   * repository only reads and writes. Steps on one episode run one at a time in this process, so each is computed
   * from the state the one before it stored; the write is conditioned on the version the step was computed from,
   * so a step raced by another process is computed again from the row. `transport` is what the step came by, for
   * the metrics, which count a step once it is applied (not a request id's retry).
   */
  async step(caller: EpisodeCaller, episodeId: string, action: Action, requestId?: string, transport: Transport = 'http'): Promise<StepResponseDto> {
    this.checkConfiguredLimits(action);
    const actionJson = canonicalJson(canonicalAction(action));
    const request = requestId === undefined ? null : { requestId, actionHash: sha256Hex(actionJson) };
    return this.stepsInOrder.run(`${caller.tenantId}\u0000${episodeId}`, async () => {
      for (let attempt = 1; ; attempt++) {
        const episode = await this.episodeFor(caller, episodeId, (id) => this.episodes.findForStep(caller.tenantId, id));
        try {
          return await this.stepOnce(caller, episode, episodeId, action, actionJson, request, transport);
        } catch (error) {
          if (!(error instanceof StaleEpisodeError)) throw error;
          if (attempt === MAX_STEP_ATTEMPTS) throw new ConflictError('the episode kept changing while this step was applied; retry');
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_RETRY_PAUSE_MS, 2 ** attempt)));
        }
      }
    });
  }

  /**
   * One attempt at a step on `episode` (as the caller names it: `name`), from the copy given. A request id's
   * recorded response is the one its caller was given, in its view: only agent keys (and the open-mode user) step.
   */
  private async stepOnce(
    caller: EpisodeCaller,
    episode: EpisodeRecord,
    name: string,
    action: Action,
    actionJson: string,
    request: { requestId: string; actionHash: string } | null,
    transport: Transport,
  ): Promise<StepResponseDto> {
    if (request) {
      // Asked only once the caller may step it, so a request id tells nobody else anything.
      const prior = await this.episodes.findStepRequest(episode.tenantId, episode.id, request.requestId);
      if (prior && prior.actionHash !== request.actionHash) {
        throw new ConflictError(`request_id "${request.requestId}" was already used on this episode for a different action`);
      }
      if (prior) return JSON.parse(prior.responseJson) as StepResponseDto;
    }
    if (episode.status !== 'active') {
      throw new ConflictError(`episode "${name}" is ${episode.status.replace(/_/g, ' ')}; start a new one with POST /reset`);
    }
    const task = await this.taskOf(episode);
    const result = this.metrics.timeGrading(() => step(task, episode.state, action));
    const response = presentStep(task, name, result.state, result.reward_milli, gradeViewFor(caller, episode));
    const entry = result.state.history[result.state.history.length - 1];
    await this.episodes.saveStep(episode, { state: result.state, grade: result.grade, entry, actionJson, response }, request);
    this.metrics.stepApplied(transport, action.type, caller.tenantId);
    return response;
  }

  /**
   * Reply and query limits are configuration, so they are checked here rather than in the static DTO. A reply is
   * counted as written and as the grader reads it, after NFKC normalisation, which can make one character several.
   */
  private checkConfiguredLimits(action: Action): void {
    if (action.type === 'send_reply' && codePointLength(action.message) > this.config.maxMessageLength) {
      throw new InvalidFieldError('action.message', `message must be at most ${this.config.maxMessageLength} characters`);
    }
    if (action.type === 'send_reply' && readLength(action.message) > this.config.maxMessageLength) {
      throw new InvalidFieldError(
        'action.message',
        `message must be at most ${this.config.maxMessageLength} characters once Unicode-normalised (NFKC); it has ${readLength(action.message)}`,
      );
    }
    if (action.type === 'search_policy' && codePointLength(action.query) > this.config.maxQueryLength) {
      throw new InvalidFieldError('action.query', `query must be at most ${this.config.maxQueryLength} characters`);
    }
  }

  async state(caller: EpisodeCaller, episodeId: string): Promise<EpisodeStateDto> {
    const episode = await this.require(caller, episodeId);
    const task = await this.taskOf(episode);
    const actions = await this.episodes.listActions(caller.tenantId, episode.id);
    return presentState(task, asSeenBy(caller, episode), gradeViewFor(caller, episode), grade(task, episode.state), actions);
  }

  /** The current observation of an episode (what the agent would see after its last step). */
  async observation(caller: EpisodeCaller, episodeId: string): Promise<Observation> {
    return (await this.currentView(caller, episodeId)).observation;
  }

  /** The current observation and whether the episode has ended (the views a tool session offers). */
  async currentView(caller: EpisodeCaller, episodeId: string): Promise<{ observation: Observation; done: boolean }> {
    const episode = await this.require(caller, episodeId);
    const ended = episode.status !== 'active';
    return { observation: presentObservation(await this.taskOf(episode), episode.state, gradeViewFor(caller, episode), ended), done: ended };
  }

  /** The caller's most recent episode: an agent key's own, the whole tenant's for a reader or anonymous. */
  async latestState(caller: EpisodeCaller): Promise<EpisodeStateDto> {
    const latest = await this.episodes.findLatest(caller.tenantId, caller.seesWholeTenant ? undefined : caller.keyId);
    if (!latest) throw new NotFoundError('no episode yet; start one with POST /reset');
    return this.state(caller, latest.id);
  }

  async grade(caller: EpisodeCaller, episodeId: string): Promise<GradeResponseDto> {
    const episode = await this.require(caller, episodeId);
    return presentGrade(asSeenBy(caller, episode), gradeViewFor(caller, episode), grade(await this.taskOf(episode), episode.state));
  }

  /**
   * The run and stored id of an episode the caller names (its id, or an agent key's alias), if it may see it: what a
   * run's report route needs to find the cell the episode fills.
   */
  async runEpisode(caller: EpisodeCaller, episodeName: string): Promise<{ id: string; runId: string | null; status: string }> {
    const episode = await this.require(caller, episodeName);
    return { id: episode.id, runId: episode.runId, status: episode.status };
  }

  /**
   * The agent's attempt at a run cell ends early: "failed" on infrastructure (the cell may be filled again) or
   * "gave_up" (the agent stopped acting: the cell is finished with the score the episode had). Either way the episode
   * ends. 409 when it has already ended or is no longer its cell's attempt.
   */
  async endRunAttempt(caller: EpisodeCaller, episodeName: string, how: 'failed' | 'gave_up'): Promise<void> {
    const episode = await this.require(caller, episodeName);
    // In step order: a step of this episode being applied finishes first, so the ending never overtakes it.
    await this.stepsInOrder.run(`${caller.tenantId}\u0000${episodeName}`, async () => {
      const ended = how === 'failed' ? await this.episodes.failRunAttempt(caller.tenantId, episode.id) : await this.episodes.giveUpRunAttempt(caller.tenantId, episode.id);
      if (!ended) {
        throw new ConflictError(`episode "${episodeName}" is not an active attempt at a run cell (it has ended, or its cell was filled again); nothing changed`);
      }
    });
  }

  private latestTask(taskId: string) {
    try {
      return this.tasks.latest(taskId);
    } catch (error) {
      if (error instanceof UnknownTaskError) throw new InvalidFieldError('task_id', error.message);
      throw error;
    }
  }

  /** The episode the caller calls `episodeId`, as stored now, if it may see it. */
  private require(caller: EpisodeCaller, episodeId: string): Promise<EpisodeRecord> {
    return this.episodeFor(caller, episodeId, (id) => this.episodes.find(caller.tenantId, id));
  }

  /**
   * The one access rule for an episode: the episode the caller calls `name` (its id, or for an agent key the alias
   * it chose), if the caller may see it; another key's episode answers exactly like a missing one.
   */
  private async episodeFor(caller: EpisodeCaller, name: string, load: (id: string) => Promise<EpisodeRecord | null>): Promise<EpisodeRecord> {
    const episode = await load(name);
    if (episode && visibleTo(caller, episode)) return episode;
    const aliased = await this.aliasedId(caller, name);
    const named = aliased === null ? null : await load(aliased);
    if (!named || !visibleTo(caller, named)) throw new NotFoundError(`no episode "${name}"`);
    return named;
  }

  /** The id of the episode an agent key named `name` when another key already had that id (EpisodeRecord.alias). */
  private aliasedId(caller: EpisodeCaller, name: string): Promise<string | null> {
    const keyId = keySpaceOf(caller);
    return keyId === null ? Promise.resolve(null) : this.episodes.findIdByAlias(caller.tenantId, keyId, name);
  }

  private taskOf(episode: EpisodeRecord): Promise<Task> {
    return this.tasks.fetchInstance(episode.taskId, episode.taskVersion, episode.seed, privateSplitKeyIdOf(episode));
  }
}

/**
 * The run label of a run cell's episode: the run and the trial, so the audit's repeated-test-play check (same task,
 * seed, agent and label) sees each trial of a cell as its own play, and a cell filled again as the repeat it is.
 */
function runLabelOf(runId: string, trial: number): string {
  return `${runId}/trial-${trial}`;
}

/** A combination of fields the rules refuse: each of them is named, since changing any one can mend it. */
function conflicting(fields: string[], message: string): ValidationFailedError {
  return new ValidationFailedError(fields.map((field) => ({ field, message })));
}

/**
 * Readers and anonymous callers see the whole tenant; an agent key sees the episodes it started, and those started
 * before keys were recorded (api_key_id is null in a tenant's episodes only when an earlier release made them), as
 * every key of the tenant did then.
 */
function visibleTo(caller: EpisodeCaller, episode: EpisodeRecord): boolean {
  return caller.seesWholeTenant || episode.apiKeyId === caller.keyId || episode.apiKeyId === null;
}

/** The key whose own space the caller names episodes in: an agent key's; null for callers that see the whole tenant. */
function keySpaceOf(caller: EpisodeCaller): string | null {
  return caller.seesWholeTenant ? null : caller.keyId;
}

/**
 * The episode as the caller names it: its agent key by the alias it chose (EpisodeRecord.alias), everyone else by
 * its id.
 */
function asSeenBy(caller: EpisodeCaller, episode: EpisodeRecord): EpisodeRecord {
  if (episode.alias === null || keySpaceOf(caller) !== episode.apiKeyId) return episode;
  return { ...episode, id: episode.alias };
}

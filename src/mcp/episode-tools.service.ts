import { Injectable, Logger } from '@nestjs/common';
import type { EpisodeCaller } from '../access/principal';
import { translateError } from '../common/errors/error-translator';
import type { FieldProblem } from '../common/errors/domain-errors';
import { validateBody } from '../common/validate-body';
import { EpisodesService, StepRequestDto } from '../episodes';
import type { Json } from '../common/json';
import { SchemaService } from '../openapi/schema.service';
import { ToolCatalog, type ToolDefinition } from './tool-catalog';
import type { ToolSchemaVariant } from './tool-schemas';

/** Who is calling (tenant, key, what it may see) and which episode their session is bound to. */
export interface ToolCaller extends EpisodeCaller {
  boundEpisodeId: string | null;
}

/**
 * What a tool call came to, before any transport words it: MCP answers an unknown tool with a JSON-RPC error and a
 * failed call with an `isError` result; OpenEnv's /ws messages put them in the observation's `error`; OpenEnv's
 * HTTP sessions answer JSON-RPC errors.
 */
export type ToolOutcome =
  | { kind: 'ok'; value: Record<string, Json>; reward: number | null; done: boolean }
  | { kind: 'unknown_tool'; message: string }
  | { kind: 'invalid_args'; message: string; details?: FieldProblem[] }
  | { kind: 'failed'; message: string; status: number; code: string };

/** An MCP `CallToolResult`: the value as JSON text for any client, and as `structuredContent` for its outputSchema. */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, Json>;
  isError: boolean;
  [key: string]: unknown;
}

/**
 * The environment as tools: one per action, with input schemas cut from the same action schema the HTTP API
 * validates against, and two read-only views. There is deliberately no tool to reset or grade: the orchestration
 * of an episode stays outside the agent's tool set.
 */
@Injectable()
export class EpisodeTools {
  private readonly logger = new Logger(EpisodeTools.name);
  private catalog: ToolCatalog | null = null;

  constructor(
    private readonly episodes: EpisodesService,
    private readonly schemas: SchemaService,
  ) {}

  list(variant: ToolSchemaVariant = 'full'): ToolDefinition[] {
    return this.tools().list(variant);
  }

  async call(caller: ToolCaller, name: string, args: unknown): Promise<ToolOutcome> {
    if (!this.tools().has(name)) return { kind: 'unknown_tool', message: `Unknown tool: ${name}` };
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      return { kind: 'invalid_args', message: 'the arguments must be a JSON object' };
    }
    const { episode_id: given, ...rest } = (args ?? {}) as Record<string, unknown>;
    // null means omitted, as everywhere: the session's episode.
    if (given !== undefined && given !== null && typeof given !== 'string') {
      return { kind: 'invalid_args', message: 'episode_id must be a string', details: [{ field: 'episode_id', message: 'episode_id must be a string' }] };
    }
    const episodeId = typeof given === 'string' ? given : caller.boundEpisodeId;
    if (episodeId === null) {
      return {
        kind: 'failed',
        status: 409,
        code: 'CONFLICT',
        message: 'no episode: this session has none (reset or create one first), and no episode_id was given',
      };
    }
    try {
      if (name === 'view_inbox' || name === 'view_ticket') return await this.view(caller, name, episodeId, rest);
      const body = await validateBody(StepRequestDto, { episode_id: episodeId, action: { type: name, ...rest } });
      const step = await this.episodes.step(caller, body.episode_id, body.action, undefined, 'mcp');
      return { kind: 'ok', value: step as unknown as Record<string, Json>, reward: step.reward, done: step.done };
    } catch (error) {
      return this.outcomeOf(error);
    }
  }

  private async view(caller: EpisodeCaller, name: 'view_inbox' | 'view_ticket', episodeId: string, rest: Record<string, unknown>): Promise<ToolOutcome> {
    const extra = Object.entries(rest).filter(([, value]) => value !== null).map(([field]) => field);
    if (extra.length > 0) {
      return {
        kind: 'invalid_args',
        message: `${name} takes only episode_id; property ${extra[0]} should not exist`,
        details: extra.map((field) => ({ field, message: `property ${field} should not exist` })),
      };
    }
    const { observation, done } = await this.episodes.currentView(caller, episodeId);
    const value =
      name === 'view_inbox'
        ? {
            episode_id: episodeId,
            instruction: observation.instruction,
            inbox: observation.inbox,
            score: observation.score,
            step_count: observation.step_count,
            remaining_steps: observation.remaining_steps,
          }
        : { episode_id: episodeId, active_ticket: observation.active_ticket, last_action_error: observation.last_action_error };
    return { kind: 'ok', value: value as unknown as Record<string, Json>, reward: null, done };
  }

  private outcomeOf(error: unknown): ToolOutcome {
    const translated = translateError(error);
    if (translated.unexpected) this.logger.error('unhandled error in a tool call', error instanceof Error ? error.stack : String(error));
    if (translated.code === 'VALIDATION_FAILED') {
      const details = translated.details?.map(argumentField);
      return { kind: 'invalid_args', message: details?.length ? details.map((d) => d.message).join('; ') : translated.message, details };
    }
    return { kind: 'failed', message: translated.message, status: translated.status, code: translated.code };
  }

  private tools(): ToolCatalog {
    this.catalog ??= new ToolCatalog(this.schemas);
    return this.catalog;
  }
}

/** A tool's arguments are the action's fields: "action.amount" is the argument "amount". */
function argumentField(problem: FieldProblem): FieldProblem {
  return { field: problem.field.replace(/^action\./, ''), message: withoutActionPrefix(problem.message) };
}

function withoutActionPrefix(message: string): string {
  return message.replace(/\baction\.(?=\w)/g, '');
}

/** The MCP form of an outcome that is not a protocol error (an unknown tool is one: see the transports). */
export function toToolResult(outcome: Exclude<ToolOutcome, { kind: 'unknown_tool' }>): ToolResult {
  if (outcome.kind === 'ok') {
    return { content: [{ type: 'text', text: JSON.stringify(outcome.value) }], structuredContent: outcome.value, isError: false };
  }
  return { content: [{ type: 'text', text: outcome.message }], isError: true };
}


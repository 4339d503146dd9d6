import { Injectable, Logger } from '@nestjs/common';
import type { EpisodeCaller } from '../access/principal';
import { translateError } from '../common/errors/error-translator';
import { validateBody } from '../common/validate-body';
import { ACTION_TYPES } from '../engine/vocabulary';
import { EpisodesService, StepRequestDto } from '../episodes';
import type { Json } from '../common/json';
import { SchemaService } from '../openapi/schema.service';
import { actionToolSchemas } from './tool-schemas';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, Json>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  [key: string]: unknown;
}

/** Who is calling (tenant, key, what it may see) and which episode their session is bound to. */
export interface ToolCaller extends EpisodeCaller {
  boundEpisodeId: string | null;
}

const EPISODE_ID_PROPERTY: Json = {
  type: 'string',
  maxLength: 64,
  description: 'The episode to act on; defaults to the episode this MCP session was bound to at initialize.',
};

/**
 * The environment as MCP tools: one per action, with input schemas cut from the same action schema the HTTP
 * API validates against, and two read-only views. There is deliberately no tool to reset or grade: the
 * orchestration of an episode stays outside the agent's tool set.
 */
@Injectable()
export class EpisodeTools {
  private readonly logger = new Logger(EpisodeTools.name);
  private definitions: ToolDefinition[] | null = null;

  constructor(
    private readonly episodes: EpisodesService,
    private readonly schemas: SchemaService,
  ) {}

  list(): ToolDefinition[] {
    this.definitions ??= this.build();
    return this.definitions;
  }

  async call(caller: ToolCaller, name: string, args: Record<string, unknown> | undefined): Promise<ToolResult> {
    const { episode_id: given, ...rest } = args ?? {};
    // null means omitted, as everywhere: the session's episode.
    const requested = given ?? undefined;
    const episodeId = typeof requested === 'string' ? requested : caller.boundEpisodeId;
    if (requested !== undefined && typeof requested !== 'string') return failure('episode_id must be a string');
    if (episodeId === null) {
      return failure('no episode: pass episode_id, or bind the session to one at initialize (x-episode-id header)');
    }
    try {
      if (name === 'view_inbox') return success(await this.inboxView(caller, episodeId));
      if (name === 'view_ticket') return success(await this.ticketView(caller, episodeId));
      if (!(ACTION_TYPES as readonly string[]).includes(name)) return failure(`unknown tool "${name}"`);
      const body = await validateBody(StepRequestDto, { episode_id: episodeId, action: { type: name, ...rest } });
      return success(await this.episodes.step(caller, body.episode_id, body.action));
    } catch (error) {
      const translated = translateError(error);
      if (translated.unexpected) this.logger.error('unhandled error in an MCP tool call', error instanceof Error ? error.stack : String(error));
      return failure(translated.message);
    }
  }

  private async inboxView(caller: EpisodeCaller, episodeId: string) {
    const { instruction, inbox, score, step_count, remaining_steps } = await this.episodes.observation(caller, episodeId);
    return { episode_id: episodeId, instruction, inbox, score, step_count, remaining_steps };
  }

  private async ticketView(caller: EpisodeCaller, episodeId: string) {
    const { active_ticket, last_action_error } = await this.episodes.observation(caller, episodeId);
    return { episode_id: episodeId, active_ticket, last_action_error };
  }

  private build(): ToolDefinition[] {
    const actionTools = actionToolSchemas(this.schemas.actionSchema()).map(
      (tool): ToolDefinition => ({
        name: tool.name,
        description: tool.description,
        inputSchema: { ...tool.parameters, properties: { ...tool.parameters.properties, episode_id: EPISODE_ID_PROPERTY } },
        annotations: { readOnlyHint: false, destructiveHint: tool.name === 'resolve_ticket' },
      }),
    );
    const view = (name: string, description: string): ToolDefinition => ({
      name,
      description,
      inputSchema: { type: 'object', properties: { episode_id: EPISODE_ID_PROPERTY }, additionalProperties: false },
      annotations: { readOnlyHint: true },
    });
    return [
      ...actionTools,
      view('view_inbox', 'The task instruction, the inbox (ticket ids and subjects), the score so far and the steps left.'),
      view('view_ticket', 'The open ticket in full, with its current priority, team and status; null before one is opened.'),
    ];
  }
}

function success(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function failure(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

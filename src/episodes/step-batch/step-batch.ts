import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EpisodeCaller } from '../../access/principal';
import { errorBodyOf } from '../../common/error-body.dto';
import { InvalidFieldError, ValidationFailedError } from '../../common/errors/domain-errors';
import { translateError } from '../../common/errors/error-translator';
import { validateBody } from '../../common/validate-body';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { StepBatchResultDto } from '../dto/step-batch.dto';
import { StepRequestDto } from '../dto/step-request.dto';
import { EpisodesService } from '../episodes.service';

/**
 * Many steps in one request (`POST /step/batch`, the /ws `step_batch` message): how a vectorised RL environment
 * steps all its environments in one round trip. Each item is exactly a `POST /step` body and is answered exactly as
 * `POST /step` would answer it, with its own result or error; a bad item fails only itself.
 *
 * Items are validated first, all of them, and then every step is started in item order in the same turn of the
 * event loop: the service applies the steps of one episode one at a time in the order they were started (so in
 * item order), and steps of different episodes together, their writes sharing a group commit.
 */
@Injectable()
export class StepBatch {
  private readonly logger = new Logger('StepBatch');

  constructor(
    private readonly episodes: EpisodesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The most items a batch may hold on this server (STEP_BATCH_MAX_ITEMS). */
  get maxItems(): number {
    return this.config.stepBatchMaxItems;
  }

  /** Refuses a batch over the configured size (422) before anything of it is counted or applied. */
  checkSize(items: readonly unknown[]): void {
    if (items.length > this.maxItems) {
      throw new InvalidFieldError('items', `items must contain at most ${this.maxItems} elements (STEP_BATCH_MAX_ITEMS); this batch has ${items.length}`);
    }
  }

  async apply(caller: EpisodeCaller, items: readonly unknown[], requestId: string): Promise<StepBatchResultDto[]> {
    this.checkSize(items);
    const checked = await Promise.all(items.map((item, index) => validItem(item, index)));
    // Started in item order with no await between them: see the class comment.
    const steps = checked.map((item) =>
      item instanceof Error ? Promise.reject(item) : this.episodes.step(caller, item.episode_id, item.action, item.request_id, 'batch'),
    );
    const settled = await Promise.allSettled(steps);
    return settled.map((outcome, index) => {
      if (outcome.status === 'fulfilled') return { status: 200, result: outcome.value };
      const translated = translateError(ofItem(outcome.reason, index));
      if (translated.unexpected) {
        this.logger.error(`unhandled error in a batch item (request ${requestId})`, outcome.reason instanceof Error ? outcome.reason.stack : String(outcome.reason));
      }
      return { status: translated.status, error: errorBodyOf(translated, requestId) };
    });
  }
}

/** An item as `POST /step` would take it, or the validation error `POST /step` would give. */
async function validItem(item: unknown, index: number): Promise<StepRequestDto | Error> {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    const at = `items.${index}`;
    return new ValidationFailedError([{ field: at, message: `${at} must be an object: a POST /step body {episode_id, action, request_id?}` }]);
  }
  try {
    return await validateBody(StepRequestDto, item);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** An item's error with the fields it names as paths in the batch body (`items.<i>.action.ticket_id`). */
function ofItem(error: unknown, index: number): unknown {
  if (!(error instanceof ValidationFailedError)) return error;
  const at = `items.${index}`;
  if (error.details.every(({ field }) => field === at || field.startsWith(`${at}.`))) return error;
  return new ValidationFailedError(
    error.details.map(({ field, message }) => ({
      field: `${at}.${field}`,
      message: message.startsWith(`${field} `) ? `${at}.${message}` : message,
    })),
  );
}

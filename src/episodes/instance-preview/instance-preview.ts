import type { Action } from '../../engine/actions';
import { reset, step } from '../../engine/engine';
import { observe } from '../../engine/observation';
import type { Task } from '../../engine/task.schema';
import type { Split } from '../../families';
import type { ActiveTicketDto, ObservationDto } from '../dto/observation.dto';
import type { InstancePreviewDto } from '../dto/instance-preview.dto';

export interface DrawnInstance {
  task: Task;
  taskId: string;
  seed: number;
  split: Split;
  generatorVersion: string;
}

/**
 * An instance as an agent meets it: the observation reset gives, and each inbox ticket as open_ticket shows it
 * (each opened from the reset state, so none is shown as changed by another). Only the engine's own observation is
 * used, so a preview shows nothing an agent reading every ticket would not see.
 */
export function previewInstance({ task, taskId, seed, split, generatorVersion }: DrawnInstance): InstancePreviewDto {
  const start = reset(task, seed);
  const observation: ObservationDto = { ...observe(task, start), score: null };
  const tickets: ActiveTicketDto[] = observation.inbox.map((entry) => {
    const open: Action = { type: 'open_ticket', ticket_id: entry.ticket_id };
    const opened = observe(task, step(task, start, open).state).active_ticket;
    if (opened === null) throw new Error(`opening ticket ${entry.ticket_id} of ${taskId}#${seed} showed no ticket`);
    return opened;
  });
  return {
    task_id: taskId,
    seed,
    split,
    generator_version: generatorVersion,
    title: task.title,
    difficulty: task.difficulty,
    max_steps: task.max_steps,
    observation,
    tickets,
  };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskSchema } from '../../src/engine/task.schema';
import type { ReplyClaim } from '../../src/engine/graders/v2/claims/claim.schema';

/** The seed tasks' clocks and reply claims, read from the families' canonical task files (for the engine's specs). */
export function seedClaims(taskId: string): { clock: string; claims: ReplyClaim[] } {
  const file = join(__dirname, '..', '..', 'src', 'families', taskId, 'canonical.json');
  const task = taskSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { clock: task.clock!, claims: task.answer_key.reply_claims! };
}

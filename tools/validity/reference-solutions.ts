import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';
import type { Action } from '../../src/engine/actions';
import { latestFamilies } from '../../src/families';

/**
 * The scripted correct trajectory on a family's canonical instance, written by reading that instance as an agent
 * would, plus the searches an agent could build from the ticket's own words. Each must score exactly 1.0.
 */
export interface Solution {
  targetTicketId: string;
  /**
   * Queries made only of words the agent has read (the ticket, the instruction, articles surfaced by the queries
   * before); together they surface every required article.
   */
  readingQueries: string[];
  actions: Action[];
}

/** Where a family declares it: beside its canonical instance, as data (`src/families/<id>/canonical-solution.json`). */
export function canonicalSolutionFile(familyId: string): string {
  return join(PROJECT_ROOT, 'src', 'families', familyId, 'canonical-solution.json');
}

/** A family's canonical solution, read from its folder; a missing or malformed file is refused with its path named. */
export function canonicalSolutionOf(familyId: string): Solution {
  const file = canonicalSolutionFile(familyId);
  let raw: { target_ticket_id?: unknown; reading_queries?: unknown; actions?: unknown };
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as typeof raw;
  } catch (error) {
    throw new Error(`family ${familyId} has no readable canonical solution (${file}): ${(error as Error).message}`);
  }
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
  const actions = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every((a) => typeof (a as { type?: unknown })?.type === 'string');
  if (typeof raw.target_ticket_id !== 'string' || !strings(raw.reading_queries) || !actions(raw.actions)) {
    throw new Error(`${file}: needs target_ticket_id (a ticket id), reading_queries (strings) and actions (a non-empty list of actions)`);
  }
  return { targetTicketId: raw.target_ticket_id, readingQueries: raw.reading_queries as string[], actions: raw.actions as Action[] };
}

/** The trajectory's reply: it states every required detail. */
export function correctReply(solution: Solution): string {
  const reply = solution.actions.find((a) => a.type === 'send_reply');
  if (!reply || reply.type !== 'send_reply') throw new Error('solution has no reply');
  return reply.message;
}

/** Every registered family's canonical solution, by task id, in registry order: the folders are the only list. */
export const SOLUTIONS: Record<string, Solution> = Object.fromEntries(latestFamilies().map((family) => [family.id, canonicalSolutionOf(family.id)]));

/*
 * A running episode's state is its active_states row (deleted when the episode ends); the episodes row's own
 * state_json is "" then, and holds a snapshot only for episodes an earlier release stored that way. Every read of an
 * episode's stored state goes through one of these.
 */

/** The stored state in SQL over `episodes` (unaliased): the active_states row, else the row's own column. */
export const STORED_STATE_JSON = 'COALESCE((SELECT s.state_json FROM active_states s WHERE s.episode_serial = episodes.serial), episodes.state_json)';

/** What a Prisma read of an episode includes so that withActiveState can put its state in place. */
export const ACTIVE_STATE = { activeState: { select: { stateJson: true } } } as const;

/** A Prisma episode read with ACTIVE_STATE, as the rest of the code sees it: the stored state in stateJson. */
export function withActiveState<T extends { stateJson: string; activeState: { stateJson: string } | null }>(row: T): Omit<T, 'activeState'> {
  const { activeState, ...episode } = row;
  return { ...episode, stateJson: activeState?.stateJson ?? episode.stateJson };
}

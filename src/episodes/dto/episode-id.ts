import { Matches } from 'class-validator';

/**
 * What an episode id may be: a UUID (the server's), or an id a client picks (OpenEnv clients may send one):
 * 1-64 letters, digits, ".", "_", ":" or "-", and not "." or "..", which paths would resolve away.
 */
export const EPISODE_ID_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._:-]{1,64}$/;

export const EPISODE_ID_MAX_LENGTH = 64;

export function MatchesEpisodeId(): PropertyDecorator {
  return Matches(EPISODE_ID_PATTERN, { message: 'episode_id must be 1-64 letters, digits, ".", "_", ":" or "-", and not "." or ".."' });
}

/**
 * An episode's stored state in SQL over `episodes`, as the server reads it (src/episodes/episode-statements.ts): a
 * running episode's active_states row, else the row's own column ("" once it ended; a snapshot from an earlier release).
 */
export const STORED_STATE = 'COALESCE((SELECT s.state_json FROM active_states s WHERE s.episode_serial = episodes.serial), episodes.state_json)';

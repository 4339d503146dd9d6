import type { EpisodeRecord } from './episode.repository';

/**
 * The most recently stepped active episodes, so a step does not read and parse the episode row it wrote a moment
 * ago. A hint, never the truth: every step's UPDATE is conditioned on the cached `version`, so a copy made stale
 * by any other writer (the idle-expiry sweep, another process on the same file) matches no row, is dropped, and
 * the step is computed again from the row. Least recently used entries go first; 0 entries disables it.
 */
export class ActiveEpisodeCache {
  private readonly entries = new Map<string, EpisodeRecord>();

  constructor(private readonly capacity: number) {}

  get(tenantId: string, episodeId: string): EpisodeRecord | undefined {
    const key = keyOf(tenantId, episodeId);
    const episode = this.entries.get(key);
    if (episode) {
      // Re-inserting moves it to the end: Map iteration order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, episode);
    }
    return episode;
  }

  /** Keeps active episodes only: a finished one is never stepped again, so it would only take room. */
  put(episode: EpisodeRecord): void {
    const key = keyOf(episode.tenantId, episode.id);
    this.entries.delete(key);
    if (episode.status !== 'active' || this.capacity === 0) return;
    this.entries.set(key, episode);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(tenantId: string, episodeId: string): void {
    this.entries.delete(keyOf(tenantId, episodeId));
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const keyOf = (tenantId: string, episodeId: string) => `${tenantId}\u0000${episodeId}`;

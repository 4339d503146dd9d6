import { ActiveEpisodeCache } from './active-episode-cache';
import type { EpisodeRecord } from './episode.repository';

const episode = (id: string, tenantId = 't1', status: EpisodeRecord['status'] = 'active') => ({ id, tenantId, status }) as EpisodeRecord;

describe('ActiveEpisodeCache', () => {
  it('drops the least recently used episode beyond its capacity (a read counts as a use)', () => {
    const cache = new ActiveEpisodeCache(2);
    cache.put(episode('a'));
    cache.put(episode('b'));
    expect(cache.get('t1', 'a')?.id).toBe('a'); // b is now the least recently used
    cache.put(episode('c'));
    expect(cache.get('t1', 'b')).toBeUndefined();
    expect(cache.get('t1', 'a')?.id).toBe('a');
    expect(cache.get('t1', 'c')?.id).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('keys by tenant and episode, so one tenant never gets another tenant\'s copy', () => {
    const cache = new ActiveEpisodeCache(10);
    cache.put(episode('same-id', 't1'));
    expect(cache.get('t2', 'same-id')).toBeUndefined();
  });

  it('keeps active episodes only: putting a finished one removes the earlier copy', () => {
    const cache = new ActiveEpisodeCache(10);
    cache.put(episode('a'));
    cache.put(episode('a', 't1', 'resolved'));
    expect(cache.get('t1', 'a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('with capacity 0 keeps nothing', () => {
    const cache = new ActiveEpisodeCache(0);
    cache.put(episode('a'));
    expect(cache.get('t1', 'a')).toBeUndefined();
  });
});

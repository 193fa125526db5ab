import { describe, expect, it } from 'vitest';
import { createSessionCache } from './session-cache.ts';

type CachedSession = { userId: string; email: string; roleType: string; lastSeenAt: Date; expiresAt: Date };

const session = (over: Partial<CachedSession> = {}): CachedSession => ({
  userId: 'u1',
  email: 'a@example.com',
  roleType: 'admin',
  lastSeenAt: new Date('2030-01-01T00:00:00Z'),
  expiresAt: new Date('2030-01-02T00:00:00Z'),
  ...over,
});

describe('the session cache', () => {
  it('keeps nothing until its feed is live, and empties when the feed drops', () => {
    const cache = createSessionCache<CachedSession>();
    cache.set('s1', session(), cache.generation());
    expect(cache.get('s1')).toBeUndefined();
    cache.setLive(true);
    cache.set('s1', session(), cache.generation());
    expect(cache.get('s1')).toEqual(session());
    cache.setLive(false);
    expect(cache.get('s1')).toBeUndefined();
  });

  it('forgets everything on a notice, and does not keep a read that began before it', () => {
    const cache = createSessionCache<CachedSession>();
    cache.setLive(true);
    cache.set('s1', session(), cache.generation());
    const before = cache.generation();
    cache.clear();
    expect(cache.get('s1')).toBeUndefined();
    cache.set('s2', session(), before);
    expect(cache.get('s2')).toBeUndefined();
  });

  it('moves a last-seen time only forward, and stays within its size', () => {
    const cache = createSessionCache<CachedSession>({ maxEntries: 2 });
    cache.setLive(true);
    cache.set('s1', session(), cache.generation());
    cache.seen('s1', new Date('2030-01-01T00:05:00Z'));
    cache.seen('s1', new Date('2030-01-01T00:01:00Z'));
    expect(cache.get('s1')!.lastSeenAt).toEqual(new Date('2030-01-01T00:05:00Z'));
    cache.set('s2', session(), cache.generation());
    cache.set('s3', session(), cache.generation());
    expect([cache.get('s1'), cache.get('s2'), cache.get('s3')].map(Boolean)).toEqual([false, true, true]);
  });
});

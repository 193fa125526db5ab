import { describe, expect, it } from 'vitest';
import { createCredentialCache } from './credential-cache.ts';

const machine = (deviceId: string) => ({ deviceId, machineNumber: `MN-${deviceId}` });

describe('the credential cache', () => {
  it('holds nothing until its feed is live, and empties when the feed is lost', () => {
    const cache = createCredentialCache<ReturnType<typeof machine>>();
    cache.set('a', machine('1'), cache.generation());
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    cache.set('a', machine('1'), cache.generation());
    expect(cache.get('a')).toEqual(machine('1'));
    cache.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', machine('1'), cache.generation());
    expect(cache.get('a')).toBeUndefined();
  });

  it("forgets every credential of a device, and keeps other devices'", () => {
    const cache = createCredentialCache<ReturnType<typeof machine>>();
    cache.setLive(true);
    cache.set('a', machine('1'), cache.generation());
    cache.set('b', machine('1'), cache.generation());
    cache.set('c', machine('2'), cache.generation());
    cache.forgetDevice('1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, machine('2')]);
  });

  it('does not keep a read that began before a change was announced', () => {
    const cache = createCredentialCache<ReturnType<typeof machine>>();
    cache.setLive(true);
    const readAt = cache.generation();
    // The revocation commits and is announced while the read is on its way back.
    cache.forgetDevice('1');
    cache.set('a', machine('1'), readAt);
    expect(cache.get('a')).toBeUndefined();
  });

  it('lets an entry expire, and drops the oldest when full', () => {
    let now = 0;
    const cache = createCredentialCache<ReturnType<typeof machine>>({
      ttlMs: 1000,
      maxEntries: 2,
      now: () => now,
    });
    cache.setLive(true);
    cache.set('a', machine('1'), cache.generation());
    cache.set('b', machine('2'), cache.generation());
    cache.set('c', machine('3'), cache.generation());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    now = 999;
    expect(cache.get('b')).toEqual(machine('2'));
    now = 1000;
    expect(cache.get('b')).toBeUndefined();
  });
});

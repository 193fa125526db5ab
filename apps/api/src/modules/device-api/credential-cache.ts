/**
 * Known-good device credentials (digest → machine), so a machine's call needs no database read.
 * Sound only while told of every change (decision 038): `forgetDevice` on each notice of the
 * database's device_auth_changed channel, and `setLive(false)` whenever notices may be missed,
 * which empties it and keeps it empty until the feed is back.
 */
export function createCredentialCache<Device extends { deviceId: string }>({
  ttlMs = 15 * 60_000,
  maxEntries = 100_000,
  now = Date.now,
}: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const entries = new Map<string, { device: Device; until: number }>();
  let live = false;
  // Bumped by every forget: a lookup that began before one may hold what it removed.
  let generation = 0;

  return {
    get(digest: string): Device | undefined {
      const entry = entries.get(digest);
      if (!entry) return undefined;
      if (entry.until > now()) return entry.device;
      entries.delete(digest);
      return undefined;
    },
    /** The mark to hand back to `set`: taken before the database read. */
    generation: () => generation,
    set(digest: string, device: Device, readAt: number) {
      if (!live || readAt !== generation) return;
      // Oldest first out: a Map iterates in insertion order.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(digest, { device, until: now() + ttlMs });
    },
    forgetDevice(deviceId: string) {
      generation++;
      for (const [digest, entry] of entries) if (entry.device.deviceId === deviceId) entries.delete(digest);
    },
    setLive(next: boolean) {
      generation++;
      entries.clear();
      live = next;
    },
    get size() {
      return entries.size;
    },
  };
}

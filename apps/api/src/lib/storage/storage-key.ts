import { randomBytes } from 'node:crypto';

const segment = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const extension = /^[a-z0-9]{1,10}$/;

/** A new unguessable key such as `apks/3f9c…e1.apk`. Only our own constants go into it. */
export function storageKey(prefix: string, ext?: string): string {
  if (!prefix.split('/').every((s) => segment.test(s))) throw new Error(`bad storage prefix: ${prefix}`);
  if (ext !== undefined && !extension.test(ext)) throw new Error(`bad storage extension: ${ext}`);
  const id = randomBytes(16).toString('hex');
  return `${prefix}/${id}${ext ? `.${ext}` : ''}`;
}

const validKey = /^[a-z0-9][a-z0-9_-]{0,63}(\/[a-z0-9][a-z0-9_.-]{0,127})*$/;

/** Defends the storage against a key that could escape its root (`..`, absolute paths, odd bytes). */
export function assertValidKey(key: string): void {
  if (!validKey.test(key) || key.split('/').some((s) => s === '.' || s === '..' || s.includes('..'))) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
}

import type { Readable } from 'node:stream';

/** What a stored upload came to: its exact size and SHA-256 (hex), computed while it streamed in. */
export type PutResult = { size: number; sha256: string };

export type PutOptions = {
  contentType?: string;
  /** Refuse (413) once more than this many bytes arrived; nothing is kept. */
  maxBytes?: number;
  /**
   * Runs on the complete received bytes, in a local file, before the object becomes visible.
   * Throw to reject: the file is removed and `put` rejects with that error. Lets a caller check a
   * file by content (e.g. a ZIP's central directory) without holding it in memory.
   */
  check?: (localPath: string, received: PutResult) => Promise<void>;
};

export type StoredObject = { stream: Readable; size: number; contentType?: string };

/**
 * File storage behind one interface. Keys come from `storageKey()` (never from user input); a key
 * names one object, written once. `put` is all-or-nothing: an aborted, oversized or rejected
 * upload leaves nothing behind.
 */
export interface Storage {
  readonly kind: 'disk' | 's3';
  put(key: string, source: Readable | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<PutResult>;
  /** The object, or null when there is none under that key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

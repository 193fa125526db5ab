type BatchWriterOptions<B> = {
  /** How long what was added may wait in memory before a write starts. */
  flushIntervalMs: number;
  /** With this many items waiting, the write starts at once instead of at the timer. */
  flushAtSize?: number;
  /**
   * After a write that left items (the database away), try them again one interval later even if
   * nothing new arrives. Without it they wait for the next item, or the close.
   */
  retryLeftovers?: boolean;
  /** A new, empty buffer (an array, a map: whatever the owner coalesces into). */
  empty: () => B;
  size: (buffer: B) => number;
  /** Writes a batch taken out of the buffer; resolves to what it could not write. Never rejects. */
  write: (batch: B) => Promise<B>;
  /** What a write left, put back before what arrived while it ran; a bounded buffer drops here too. */
  putBack: (left: B, since: B) => B;
};

/**
 * Work noted in memory and written to the database later, in batches, so that no request waits on
 * (or fails with) a write that only records it: the audit trail's rows (audit.ts) and the machines'
 * last-seen times (check-ins.ts, decision 022). A timer writes what waits `flushIntervalMs` after
 * the first item, at once when `flushAtSize` items wait, and once more on close; writes run one at a
 * time, in order. What a write leaves goes back into the buffer, unless the writer is closing:
 * the close is the last write, and what it cannot write is given up.
 */
export function createBatchWriter<B>({
  flushIntervalMs,
  flushAtSize = Infinity,
  retryLeftovers = false,
  empty,
  size,
  write,
  putBack,
}: BatchWriterOptions<B>) {
  let buffer = empty();
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  async function writeBuffer() {
    if (size(buffer) === 0) return;
    const batch = buffer;
    buffer = empty();
    const left = await write(batch);
    if (size(left) === 0 || closed) return;
    buffer = putBack(left, buffer);
    if (retryLeftovers) schedule();
  }

  /** Writes everything added so far; resolves when it is in the database (or given up). */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    chain = chain.then(writeBuffer, writeBuffer);
    return chain;
  }

  function schedule() {
    if (size(buffer) >= flushAtSize) {
      void flush();
      return;
    }
    if (timer || closed || size(buffer) === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushIntervalMs);
    timer.unref();
  }

  return {
    /** Notes an item: `note` changes the buffer in place (push, merge). Memory only; never waits. */
    add(note: (buffer: B) => void) {
      note(buffer);
      schedule();
    },
    flush,
    /** Items waiting in memory (not those a running write has taken). */
    size: () => size(buffer),
    /** The last write: what is waiting is written, and nothing is scheduled after it. */
    async close() {
      closed = true;
      await flush();
    },
  };
}

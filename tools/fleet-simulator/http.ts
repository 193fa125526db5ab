/*
 * The one HTTP path of the simulator's clients: JSON over fetch (Node's undici keeps connections
 * alive), the `{ code, msg, data }` envelope, and the app's retry rule. A network error, a 5xx or a
 * 429 is retried with the very same body (so the same item ids), after Retry-After when the server
 * names one, else after a growing, jittered pause.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path} answered ${status}: ${msg}`);
    this.name = 'ApiError';
  }
}

export type RetryPolicy = {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First pause when the server names none; doubles per attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
};
export const defaultRetry: RetryPolicy = { attempts: 6, baseDelayMs: 200, maxDelayMs: 10_000 };

/** Counts what the transport did, for the simulator's summary and the tests. */
export type HttpStats = { requests: number; retries: number; throttled: number };
export const newHttpStats = (): HttpStats => ({ requests: 0, retries: 0, throttled: 0 });

export type HttpOptions = {
  baseUrl: string;
  retry?: RetryPolicy;
  stats?: HttpStats;
  /** Per attempt. */
  timeoutMs?: number;
};

export type CallOptions = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body sent as it is (a file), instead of `body` as JSON. */
  raw?: { bytes: Uint8Array<ArrayBuffer>; contentType: string };
  query?: Record<string, string | number | undefined>;
  /** Per attempt, instead of the client's (a long-poll waits longer than a call should). */
  timeoutMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After is seconds or an HTTP date. */
function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const retryable = (status: number) => status === 429 || status >= 500;

export function createHttp({ baseUrl, retry = defaultRetry, stats, timeoutMs = 30_000 }: HttpOptions) {
  const origin = baseUrl.replace(/\/+$/, '');

  /** Answers the envelope's data on 2xx; throws ApiError on any other status once retries are spent. */
  async function call<T>(options: CallOptions): Promise<T> {
    const url = new URL(origin + options.path);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    // Serialised once: every attempt sends the same bytes.
    const body = options.raw
      ? options.raw.bytes
      : options.body === undefined
        ? undefined
        : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.raw) headers['content-type'] = options.raw.contentType;
    else if (body !== undefined) headers['content-type'] = 'application/json';
    let lastError: unknown;
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      if (attempt > 1 && stats) stats.retries++;
      if (stats) stats.requests++;
      let res: Response;
      try {
        res = await fetch(url, {
          method: options.method,
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? timeoutMs),
        });
      } catch (err) {
        lastError = err;
        if (attempt < retry.attempts) await sleep(backoff(attempt));
        continue;
      }
      const text = await res.text();
      let parsed: { msg?: unknown; data?: unknown } | null = null;
      try {
        parsed = text ? (JSON.parse(text) as { msg?: unknown; data?: unknown }) : null;
      } catch {
        parsed = null;
      }
      if (res.ok) return parsed?.data as T;
      const msg = typeof parsed?.msg === 'string' ? parsed.msg : text.slice(0, 200) || res.statusText;
      lastError = new ApiError(res.status, msg, options.method, options.path);
      if (!retryable(res.status) || attempt === retry.attempts) break;
      if (res.status === 429 && stats) stats.throttled++;
      const named = retryAfterMs(res.headers.get('retry-after'));
      await sleep(named === null ? backoff(attempt) : Math.min(named, 60_000));
    }
    if (lastError instanceof ApiError) throw lastError;
    const reason = lastError instanceof Error ? (lastError.cause ?? lastError).toString() : String(lastError);
    throw new Error(`${options.method} ${url.origin}${options.path} failed: ${reason}`);
  }

  function backoff(attempt: number) {
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  return { call, baseUrl: origin };
}

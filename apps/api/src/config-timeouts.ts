import { z } from 'zod';
import type { Timeouts } from './lib/request-timeouts.ts';

/** The environment variables of the request timeouts (lib/request-timeouts.ts). */
export const timeoutsEnv = {
  // A whole request, an upload, an idle socket, headers, keep-alive.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  UPLOAD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(3_600_000),
  IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
};
type TimeoutsEnv = z.infer<z.ZodObject<typeof timeoutsEnv>>;

export const timeoutsConfig = (e: TimeoutsEnv): Timeouts => ({
  requestMs: e.REQUEST_TIMEOUT_MS,
  uploadMs: e.UPLOAD_TIMEOUT_MS,
  idleMs: e.IDLE_TIMEOUT_MS,
  headersMs: e.HEADERS_TIMEOUT_MS,
  keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
});

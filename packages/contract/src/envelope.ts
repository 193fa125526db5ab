import { z } from 'zod';

export { apiMessages, type Envelope } from './api-messages.ts';

/** Every API answer is `{ code, msg, data }`; `code` mirrors the HTTP status. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

import { z } from 'zod';

/** A bad environment: the message names every bad variable, and the start stops. */
export class ConfigError extends Error {}

/** An on/off variable: 1, true, 0, false; empty or unset is undefined (the setting's own default). */
export const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === '1' || v === 'true'));

import { z } from 'zod';
import {
  commandParamSchemas,
  type anyCommandParams,
  type Command,
  type CommandKind,
  type CommandState,
} from '@app/contract/commands';
import type { StatusTone } from '#web/components/status-badge.tsx';

/** The parameters any kind may take (the contract's one shape of them all). */
export type CommandParamKey = keyof typeof anyCommandParams.shape;

/** The parameters `kind` takes, read from its schema in the contract (so the form asks for just those). */
export function paramKeysOf(kind: CommandKind): CommandParamKey[] {
  const schema: z.ZodType = commandParamSchemas[kind];
  const object = schema instanceof z.ZodDefault ? schema.unwrap() : schema;
  return object instanceof z.ZodObject ? (Object.keys(object.shape) as CommandParamKey[]) : [];
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** 60 → "1 hour", 1440 → "1 day", 90 → "90 minutes". */
export function minutesInWords(minutes: number) {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

/** A command's parameters said in words: "Logs of the last 1 hour", "Reason: Pump alarm". */
export function paramsInWords(command: Pick<Command, 'params'>): string | null {
  const { minutes, reason } = command.params;
  const words = [
    typeof minutes === 'number' ? `Logs of the last ${minutesInWords(minutes)}` : null,
    typeof reason === 'string' ? `Reason: ${reason}` : null,
  ].filter(Boolean);
  return words.length ? words.join('; ') : null;
}

/** A state's badge colour: still open in blue shades, the app's outcome in green or red. */
export const commandStateTones: Record<CommandState, StatusTone> = {
  queued: 'info',
  delivered: 'primary',
  succeeded: 'success',
  failed: 'danger',
  expired: 'warning',
  cancelled: 'secondary',
};

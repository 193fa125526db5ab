import { z } from 'zod';
import { envelope } from './envelope.ts';
import { idParamSchema } from './devices.ts';
import { pageQuery, strictObject } from './fields.ts';

/*
 * Remote commands to the machines (issue 37, decision 077): each kind declared once here with its
 * typed parameters and whether it disrupts the machine. An admin queues one for a machine; each
 * machine's copy has its own state; the machine receives its pending commands in the heartbeat's
 * answer or by long-poll, runs each once (by its id) and reports the result (docs/device-api.md).
 */

export const commandKinds = [
  'sync-now',
  'upload-diagnostics',
  'restart-app',
  'safety-hold',
  'release-hold',
  're-enrol',
] as const;
export type CommandKind = (typeof commandKinds)[number];

export const commandMessages = {
  notFound: 'Command not found',
  /** Device Details' Commands section when the machine has none. */
  noneSent: 'No commands sent to this machine yet',
  invalidId: 'Command id is invalid',
  kindInvalid: `kind must be one of ${commandKinds.join(', ')}`,
  reasonRequired: 'params.reason is required',
  reasonTooLong: 'params.reason must be at most 500 characters',
  minutesInvalid: 'params.minutes must be a whole number from 1 to 1440',
  ttlInvalid: 'ttlMinutes must be a whole number from 1 to 10080',
  queued: 'Command queued',
  cancelled: 'Command cancelled',
  notCancellable: 'Only a queued command can be cancelled: this one has reached the machine',
  notForThisMachine: 'Command not found',
  finished: (state: string) => `This command is already ${state}`,
  resultRecorded: 'Result recorded',
  okRequired: 'ok must be true or false',
  messageTooLong: 'message must be at most 2000 characters',
  notDiagnostics: 'Only an upload-diagnostics command takes a diagnostics file',
  diagnosticsTooLarge: (mb: number) => `The diagnostics file is larger than ${mb} MB`,
  diagnosticsEmpty: 'The diagnostics file is empty',
  diagnosticsStored: 'Diagnostics stored',
  noDiagnostics: 'This command has no diagnostics file yet',
  disruptiveNeedsPermission:
    'This command interrupts the machine: it needs the permission to send disruptive commands',
  /** What a machine on safety hold shows where a treatment would start, and sends as an error log. */
  refusedOnHold: (reason: string) => `Treatment refused: the machine is on safety hold (${reason})`,
} as const;

const reason = z
  .string({ error: (i) => (i.input == null ? commandMessages.reasonRequired : 'params.reason must be text') })
  .trim()
  .min(1, commandMessages.reasonRequired)
  .max(500, commandMessages.reasonTooLong);

/** Each kind's parameters: strict, so a misspelt key is named rather than ignored. */
const none = strictObject({}).default({});
export const commandParamSchemas = {
  'sync-now': none,
  /** How many minutes of the app's recent logs the file carries (60 unless said). */
  'upload-diagnostics': strictObject({
    minutes: z
      .number({ error: commandMessages.minutesInvalid })
      .int(commandMessages.minutesInvalid)
      .min(1, commandMessages.minutesInvalid)
      .max(1440, commandMessages.minutesInvalid)
      .default(60),
  }).default({ minutes: 60 }),
  'restart-app': none,
  /** The reason is shown on the machine while it refuses to start treatments. */
  'safety-hold': strictObject({ reason }),
  'release-hold': none,
  're-enrol': none,
} as const satisfies Record<CommandKind, z.ZodType>;

type KindEntry = {
  label: string;
  /** Interrupts the machine's work: needs commands.disruptive, a fresh step-up. */
  disruptive: boolean;
  /**
   * Delivered only inside the machine's maintenance window and while no treatment runs
   * (maintenance-windows.ts). A safety hold is disruptive but never waits: it is for safety.
   */
  waitsForWindow: boolean;
  /** How long a copy may wait for its machine before it expires, unless the admin says. */
  ttlMinutes: number;
  explanation: string;
};

export const commandCatalogue: Record<CommandKind, KindEntry> = {
  'sync-now': {
    label: 'Sync now',
    disruptive: false,
    waitsForWindow: false,
    ttlMinutes: 60,
    explanation: 'The machine sends everything it holds at once instead of at its next sync.',
  },
  'upload-diagnostics': {
    label: 'Upload diagnostics',
    disruptive: false,
    waitsForWindow: false,
    ttlMinutes: 24 * 60,
    explanation: "The app's recent logs and state, as a file you can download here.",
  },
  'restart-app': {
    label: 'Restart the app',
    disruptive: true,
    waitsForWindow: true,
    ttlMinutes: 60,
    explanation: 'The app restarts once no treatment is running.',
  },
  'safety-hold': {
    label: 'Safety hold',
    disruptive: true,
    waitsForWindow: false,
    ttlMinutes: 7 * 24 * 60,
    explanation:
      'The machine refuses to start treatments until released, and shows your reason. Running treatments finish.',
  },
  'release-hold': {
    label: 'Release safety hold',
    disruptive: false,
    waitsForWindow: false,
    ttlMinutes: 7 * 24 * 60,
    explanation: 'The machine may start treatments again.',
  },
  're-enrol': {
    label: 'Re-enrol',
    disruptive: true,
    waitsForWindow: true,
    ttlMinutes: 24 * 60,
    explanation:
      'The machine forgets its credential and asks for a new enrolment code: issue one from its Enrolment card.',
  },
};

export const commandIsDisruptive = (kind: CommandKind) => commandCatalogue[kind].disruptive;

/**
 * queued: waiting for the machine. delivered: handed to it, no result yet (handed again on its next
 * call until it reports: it runs a command once by its id). succeeded / failed: the app's report.
 * expired: its TTL passed before a result. cancelled: an admin withdrew it while still queued.
 */
export const commandStates = ['queued', 'delivered', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type CommandState = (typeof commandStates)[number];
export const commandStateLabels: Record<CommandState, string> = {
  queued: 'Queued',
  delivered: 'Delivered',
  succeeded: 'Succeeded',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};
/** The states a copy can still move from. */
export const openCommandStates = ['queued', 'delivered'] as const satisfies readonly CommandState[];

const ttlMinutes = z
  .number({ error: commandMessages.ttlInvalid })
  .int(commandMessages.ttlInvalid)
  .min(1, commandMessages.ttlInvalid)
  .max(7 * 24 * 60, commandMessages.ttlInvalid)
  .optional();

/**
 * Every kind's parameters in one strict object, each optional: what a body may carry at all (a
 * bounded, closed shape for the OpenAPI document and the fuzz suite). Which of them a kind takes,
 * and which it requires, its own schema says (commandParamSchemas, checked below).
 */
export const anyCommandParams = strictObject({
  minutes: z.number({ error: commandMessages.minutesInvalid }).optional(),
  reason: z
    .string({ error: 'params.reason must be text' })
    .max(500, commandMessages.reasonTooLong)
    .optional(),
});

/** What a command is, wherever it goes: its kind, its parameters and how long it may wait. */
export const commandBodyShape = {
  kind: z.enum(commandKinds, { error: commandMessages.kindInvalid }),
  params: anyCommandParams.optional(),
  ttlMinutes,
};

/** Checks a body's parameters against its kind's own schema, naming each as `params.<key>`. */
export const checkCommandParams = (
  body: { kind: CommandKind; params?: Record<string, unknown> },
  ctx: z.RefinementCtx,
) => {
  const parsed = commandParamSchemas[body.kind].safeParse(body.params ?? {});
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: ['params', ...issue.path] });
};

/**
 * POST /api/v1/admin/machine/{id}/commands: `{ kind, params }`, params as the kind declares (a bad
 * one is named as `params.<key>`). One strict object rather than a union on `kind`, so an unknown
 * field is named whatever else is wrong; `commandParamsOf` applies the kind's defaults.
 */
export const sendCommandBodySchema = strictObject(commandBodyShape).superRefine(checkCommandParams);
export type SendCommandBody = z.infer<typeof sendCommandBodySchema>;

/** The parameters of a valid body, with the kind's defaults. */
export const commandParamsOf = (body: Pick<SendCommandBody, 'kind' | 'params'>): Record<string, unknown> =>
  commandParamSchemas[body.kind].parse(body.params ?? {});

export const commandSchema = z.object({
  _id: z.string(),
  deviceId: z.string(),
  machineNumber: z.string(),
  kind: z.enum(commandKinds),
  params: z.record(z.string(), z.unknown()),
  state: z.enum(commandStates),
  createdAt: z.string(),
  /** The admin who sent it, as their name at the time. */
  createdBy: z.string(),
  expiresAt: z.string(),
  deliveredAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** The app's message with its result (a failure's reason), or why it expired or was cancelled. */
  message: z.string().nullable(),
  /** An upload-diagnostics command's file, once the machine sent it. */
  diagnostics: z.object({ size: z.number().int(), uploadedAt: z.string() }).nullable(),
  /**
   * Why a queued command that waits for the window is held now: outside the machine's maintenance
   * window, or a treatment is running; null when it goes with the machine's next call.
   */
  waiting: z.enum(['window', 'treatment']).nullable(),
});
export type Command = z.infer<typeof commandSchema>;

export const commandListQuerySchema = pageQuery;
export const commandListSchema = z.object({
  commands: z.array(commandSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type CommandList = z.infer<typeof commandListSchema>;

export const commandIdParamSchema = idParamSchema(commandMessages.invalidId);
export const commandResponseSchema = envelope(commandSchema);
export const commandListResponseSchema = envelope(commandListSchema);

// ---------- the machine's side ----------

/** A pending command as the machine receives it (heartbeat answer, long-poll). */
export const appCommandSchema = z.object({
  _id: z.string(),
  kind: z.enum(commandKinds),
  params: z.record(z.string(), z.unknown()),
  /** Past it the server no longer takes a result: the app should not start it. */
  expiresAt: z.string(),
});
export type AppCommand = z.infer<typeof appCommandSchema>;

/** Long-poll: at most this many seconds (under the usual 60 s idle timeout of a load balancer and of this API); 0 answers at once. */
export const maxCommandWaitSeconds = 50;
export const appCommandsQuerySchema = strictObject({
  wait: z.coerce
    .number({ error: `wait must be a whole number of seconds from 0 to ${maxCommandWaitSeconds}` })
    .int(`wait must be a whole number of seconds from 0 to ${maxCommandWaitSeconds}`)
    .min(0, `wait must be a whole number of seconds from 0 to ${maxCommandWaitSeconds}`)
    .max(maxCommandWaitSeconds, `wait must be a whole number of seconds from 0 to ${maxCommandWaitSeconds}`)
    .default(0),
});
export const appCommandsSchema = z.object({ commands: z.array(appCommandSchema) });
export const appCommandsResponseSchema = envelope(appCommandsSchema);

export const commandResultBodySchema = strictObject({
  ok: z.boolean({ error: commandMessages.okRequired }),
  message: z
    .string({ error: 'message must be text' })
    .trim()
    .max(2000, commandMessages.messageTooLong)
    .optional(),
});
export type CommandResultBody = z.infer<typeof commandResultBodySchema>;
export const commandResultResponseSchema = envelope(z.object({ state: z.enum(commandStates) }));

/** The diagnostics file's limit (the app compresses its logs; this holds days of them). */
export const maxDiagnosticsBytes = 10 * 1024 * 1024;

export const commandPaths = {
  deviceCommands: (deviceId: string) => `/api/v1/admin/machine/${deviceId}/commands`,
  command: (id: string) => `/api/v1/admin/commands/${id}`,
  cancel: (id: string) => `/api/v1/admin/commands/${id}/cancel`,
  diagnostics: (id: string) => `/api/v1/admin/commands/${id}/diagnostics`,
  appCommands: '/api/v1/app/commands',
  appResult: (id: string) => `/api/v1/app/commands/${id}/result`,
  appDiagnostics: (id: string) => `/api/v1/app/commands/${id}/diagnostics`,
} as const;

import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  commandCatalogue,
  commandKinds,
  commandMessages,
  commandParamSchemas,
  sendCommandBodySchema,
  type CommandKind,
  type SendCommandBody,
} from '@app/contract/commands';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useCan } from '#web/lib/use-session.ts';
import { useSendCommand } from '../api/send-command.ts';
import { minutesInWords, paramKeysOf } from './command-words.ts';

/** What the form holds: every kind's parameters, of which the body carries only the picked kind's. */
type SendCommandInput = {
  kind: CommandKind;
  params: { minutes?: number; reason?: string };
  ttlMinutes?: number;
};

/** The body the contract checks, from the form: the kind's own parameters, and a TTL only when given. */
function bodyOf({ kind, params, ttlMinutes }: SendCommandInput): z.input<typeof sendCommandBodySchema> {
  const keys = paramKeysOf(kind);
  const own = Object.fromEntries(
    keys.flatMap((key) => (params[key] === undefined ? [] : [[key, params[key]]])),
  );
  return {
    kind,
    ...(keys.length ? { params: own } : {}),
    ...(ttlMinutes === undefined ? {} : { ttlMinutes }),
  };
}

// The contract's schema checks the body, so its messages show under the fields they name
// (params.reason under Reason); the form's field names are the body's paths.
const resolver = zodResolver(z.custom<SendCommandInput>().transform(bodyOf).pipe(sendCommandBodySchema));

const defaultMinutes = commandParamSchemas['upload-diagnostics'].parse(undefined).minutes;
// Module-level: the form is filled afresh whenever `blank` changes.
const blank: SendCommandInput = { kind: 'sync-now', params: { minutes: defaultMinutes, reason: '' } };
/** An empty number box is "not given", not 0 (a number box holds '' for what is not a number). */
const asNumber = { setValueAs: (v: unknown) => (v === '' || v == null ? undefined : Number(v)) };

/** Send one machine a command (Device Details' Commands). */
export function SendCommandModal({
  deviceId,
  machineNumber,
  show,
  onClose,
}: {
  deviceId: string;
  machineNumber: string;
  show: boolean;
  onClose: () => void;
}) {
  const send = useSendCommand(deviceId);
  return (
    <CommandForm
      title={`Send a command to ${machineNumber}`}
      show={show}
      onClose={onClose}
      pending={send.isPending}
      send={(body) => send.mutateAsync(body)}
      saved={commandMessages.queued}
    />
  );
}

/**
 * The command form (issue 37): its kind with the catalogue's explanation, the kind's parameters and
 * an optional TTL, sent by `send` (to one machine, or to several: device-bulk-command.tsx). A
 * disruptive kind is offered only with commands.disruptive, says so before it is sent, and is sent
 * after the password (the route's step-up, asked for by the API client while this dialog stays
 * open with its values).
 */
export function CommandForm({
  title,
  show,
  onClose,
  pending,
  send,
  saved,
  note,
}: {
  title: string;
  show: boolean;
  onClose: () => void;
  pending: boolean;
  send: (body: SendCommandBody) => Promise<{ msg?: string }>;
  saved: string;
  /** Said above the fields (what several machines' command waits for). */
  note?: string;
}) {
  const mayDisrupt = useCan('commands.disruptive');
  const form = useFormModal({ show, resolver, blank });
  const { errors } = form.formState;
  const kind = form.watch('kind');
  const entry = commandCatalogue[kind];
  const kinds = commandKinds.filter((k) => mayDisrupt || !commandCatalogue[k].disruptive);
  const keys = paramKeysOf(kind);

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={title}
      submitLabel="Send command"
      pending={pending}
      onSave={(body) => send(body)}
      saved={saved}
    >
      {note ? <p className="text-body-secondary">{note}</p> : null}
      {form.select(
        'kind',
        'Command',
        kinds.map((k) => (
          <option key={k} value={k}>
            {commandCatalogue[k].label}
            {commandCatalogue[k].disruptive ? ' (interrupts the machine)' : ''}
          </option>
        )),
        <>
          {entry.explanation}
          {entry.disruptive ? (
            <span className="alert alert-warning d-block mt-2 mb-0 py-2">
              <strong>This interrupts the machine&apos;s work.</strong> You will be asked for your password
              before it is sent.
            </span>
          ) : null}
        </>,
      )}
      {keys.includes('minutes') ? (
        <FormField
          label="Minutes of logs"
          type="number"
          inputMode="numeric"
          min={1}
          max={1440}
          hint="How far back the file's logs go, from 1 to 1440 (a day)."
          error={errors.params?.minutes?.message}
          {...form.register('params.minutes', asNumber)}
        />
      ) : null}
      {keys.includes('reason') ? (
        <FormField
          as="textarea"
          label="Reason"
          required
          rows={2}
          maxLength={500}
          hint="Shown on the machine while it refuses to start treatments."
          error={errors.params?.reason?.message}
          {...form.register('params.reason')}
        />
      ) : null}
      <FormField
        label="Expires after (minutes)"
        type="number"
        inputMode="numeric"
        min={1}
        max={10080}
        hint={`If the machine has not taken it by then. Unless set: ${minutesInWords(entry.ttlMinutes)}.`}
        error={errors.ttlMinutes?.message}
        {...form.register('ttlMinutes', asNumber)}
      />
    </FormModal>
  );
}

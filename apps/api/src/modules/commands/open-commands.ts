import { sql } from 'drizzle-orm';
import { commandCatalogue, commandKinds, type AppCommand, type CommandKind } from '@app/contract/commands';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';

/** An open command as the inbox holds it in memory: what the machine is handed, and its state. */
export type OpenCommand = {
  id: string;
  kind: CommandKind;
  params: Record<string, unknown>;
  /** Handed over already (by this instance, or read so): a hand-over again writes nothing. */
  delivered: boolean;
  expiresAt: number;
};

/** Whether a kind may be held back by the machine's window or a treatment (read afresh then). */
export const waitsForWindow = (kind: CommandKind) => commandCatalogue[kind].waitsForWindow;

/** The kind as the catalogue's own string (one copy in memory, however many rows name it). */
const kindOf = (text: string) => commandKinds.find((k) => k === text) ?? (text as CommandKind);

/** Parsed params, one object per distinct text: a batch's copies share theirs. */
function paramsReader() {
  const seen = new Map<string, Record<string, unknown>>();
  return (text: string | null) => {
    const key = text ?? '{}';
    let value = seen.get(key);
    if (!value) seen.set(key, (value = JSON.parse(key) as Record<string, unknown>));
    return value;
  };
}

export const toOpenCommand = (
  row: { id: string; kind: string; state: string; expiresAt: Date },
  params: Record<string, unknown>,
): OpenCommand => ({
  id: row.id,
  kind: kindOf(row.kind),
  params,
  delivered: row.state === 'delivered',
  expiresAt: row.expiresAt.getTime(),
});

export const toAppCommand = (c: OpenCommand): AppCommand => ({
  _id: c.id,
  kind: c.kind,
  params: c.params,
  expiresAt: new Date(c.expiresAt).toISOString(),
});

/**
 * Every open command, by machine, oldest first: what the inbox holds after its feed comes (back)
 * live. Null when there are more than `atMost` (a fleet-wide command to a very large fleet): the
 * inbox then keeps only which machines have some, and reads each machine's on its next call.
 */
export async function loadOpenCommands(
  db: Db,
  at: Date,
  atMost: number,
): Promise<Map<string, OpenCommand[]> | null> {
  const rows = rowsOf<{
    device_id: string;
    id: string;
    kind: string;
    params: string | null;
    state: string;
    expires_at: string | Date;
  }>(
    await db.execute(sql`
      select device_id, id, kind, params::text as params, state, expires_at
      from machine_commands
      where state in ('queued', 'delivered') and expires_at > ${at}
      order by device_id, created_at, id
      limit ${atMost + 1}`),
  );
  if (rows.length > atMost) return null;
  const params = paramsReader();
  const byMachine = new Map<string, OpenCommand[]>();
  for (const row of rows) {
    let list = byMachine.get(row.device_id);
    if (!list) byMachine.set(row.device_id, (list = []));
    list.push(
      toOpenCommand(
        { id: row.id, kind: row.kind, state: row.state, expiresAt: new Date(row.expires_at) },
        params(row.params),
      ),
    );
  }
  return byMachine;
}

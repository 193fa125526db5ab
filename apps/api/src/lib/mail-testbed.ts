import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/client.ts';
import { freshDatabase } from '../test/test-app.ts';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer.ts';

/** What the mailer logged, message by message. */
export const lines: string[] = [];
export const log = {
  info: (_: object, msg?: string) => void lines.push(msg ?? ''),
  warn: (_: object, msg?: string) => void lines.push(msg ?? ''),
  error: (_: object, msg?: string) => void lines.push(msg ?? ''),
};

/** A just-migrated database of the file's own and a real SMTP server to send to. */
export const ctx = {} as { database: Database; peer: SmtpPeer };
let dropDatabase: () => Promise<void> = async () => {};

/** Opens both before the calling file's tests and closes them after. */
export function onMailTestbed() {
  beforeAll(async () => {
    ({ database: ctx.database, drop: dropDatabase } = await freshDatabase());
    ctx.peer = await startSmtpPeer();
  });
  afterAll(async () => {
    await ctx.peer.close();
    await dropDatabase();
  });
}

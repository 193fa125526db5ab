import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer.ts';

/** What the mailer logged, message by message. */
export const lines: string[] = [];
export const log = {
  info: (_: object, msg?: string) => void lines.push(msg ?? ''),
  warn: (_: object, msg?: string) => void lines.push(msg ?? ''),
  error: (_: object, msg?: string) => void lines.push(msg ?? ''),
};

/** An in-memory database and a real SMTP server to send to. */
export const ctx = {} as { database: Database; peer: SmtpPeer };

/** Opens both before the calling file's tests and closes them after. */
export function onMailTestbed() {
  beforeAll(async () => {
    ctx.database = await openDatabase({ dataDir: null });
    ctx.peer = await startSmtpPeer();
  });
  afterAll(async () => {
    await ctx.peer.close();
    await ctx.database.close();
  });
}

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer.ts';
import { createMailer } from './mailer.ts';

const lines: string[] = [];
const log = {
  info: (_: object, msg?: string) => void lines.push(msg ?? ''),
  warn: (_: object, msg?: string) => void lines.push(msg ?? ''),
  error: (_: object, msg?: string) => void lines.push(msg ?? ''),
};

let database: Database;
let peer: SmtpPeer;
beforeAll(async () => {
  database = await openDatabase({ dataDir: null });
  peer = await startSmtpPeer();
});
afterAll(async () => {
  await peer.close();
  await database.close();
});

describe('mailer', () => {
  it('delivers a text and html message to the SMTP server and records it as sent', async () => {
    const mailer = createMailer({ config: { smtpUrl: peer.url, mailFrom: 'Admin <no-reply@example.test>' }, db: database.db, log });
    const result = await mailer.send({ to: 'ann@example.test', subject: 'Your code — ünïcode', text: 'Code: 123456', html: '<p>Code: <b>123456</b></p>' });
    expect(result.status).toBe('sent');
    const mail = await peer.waitFor((m) => m.to.includes('ann@example.test'));
    expect(mail.from).toBe('no-reply@example.test');
    expect(mail.subject).toBe('Your code — ünïcode');
    expect(mail.text).toContain('Code: 123456');
    expect(mail.html).toContain('<b>123456</b>');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    mailer.close();
  });

  it('keeps a message the SMTP server refused and sends it on a later retry', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const mailer = createMailer({ config: { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' }, db: database.db, log, now: () => now });
    peer.failNext(1);
    const result = await mailer.send({ to: 'retry@example.test', subject: 'Link', text: 'https://example.test/plans/1' });
    expect(result.status).toBe('queued');
    let [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toMatch(/451|Temporary/);

    // Not due yet: nothing is retried.
    expect(await mailer.retryDue()).toBe(0);
    now = new Date(now.getTime() + 61_000);
    expect(await mailer.retryDue()).toBe(1);
    [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await peer.waitFor((m) => m.to.includes('retry@example.test'))).text).toContain('/plans/1');
    mailer.close();
  });

  it('keeps the message in the outbox and prints its text to the log when no SMTP_URL is set', async () => {
    const mailer = createMailer({ config: { smtpUrl: undefined, mailFrom: 'no-reply@example.test' }, db: database.db, log });
    const result = await mailer.send({ to: 'bob@example.test', subject: 'Your code', text: 'Code: 654321' });
    expect(result.status).toBe('logged');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'logged', to: 'bob@example.test', text: 'Code: 654321' });
    expect(lines.some((l) => l.includes('Code: 654321') && l.includes('bob@example.test'))).toBe(true);
  });

  it('does not throw when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({ config: { smtpUrl: 'smtp://user:secret@127.0.0.1:1', mailFrom: 'no-reply@example.test' }, db: database.db, log });
    const result = await mailer.send({ to: 'carol@example.test', subject: 'x', text: 'y' });
    expect(result.status).toBe('queued');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row!.lastError).not.toContain('secret');
    mailer.close();
  });
});

import net from 'node:net';
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
    const mailer = createMailer({
      config: { smtpUrl: peer.url, mailFrom: 'Admin <no-reply@example.test>' },
      db: database.db,
      log,
    });
    const result = await mailer.send({
      to: 'ann@example.test',
      subject: 'Your code — ünïcode',
      text: 'Code: 123456',
      html: '<p>Code: <b>123456</b></p>',
    });
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
    const mailer = createMailer({
      config: { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
      now: () => now,
    });
    peer.failNext(1);
    const result = await mailer.send({
      to: 'retry@example.test',
      subject: 'Link',
      text: 'https://example.test/plans/1',
    });
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

  it('keeps the message in the outbox and prints its text to the log when no SMTP_URL is set, in development only', async () => {
    const dev = createMailer({
      config: { env: 'development', smtpUrl: undefined, mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
    });
    const result = await dev.send({ to: 'bob@example.test', subject: 'Your code', text: 'Code: 654321' });
    expect(result.status).toBe('logged');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'logged', to: 'bob@example.test', text: 'Code: 654321' });
    expect(lines.some((l) => l.includes('Code: 654321') && l.includes('bob@example.test'))).toBe(true);
    // Anywhere else a one-time code in a mail never reaches the server log.
    const prod = createMailer({
      config: { env: 'production', smtpUrl: undefined, mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
    });
    expect(
      (await prod.send({ to: 'dave@example.test', subject: 'Your code 112233', text: 'Code: 112233' }))
        .status,
    ).toBe('logged');
    expect(lines.at(-1)).toBe(
      'mail kept in the outbox (no SMTP_URL); its text is not logged outside development',
    );
    expect(lines.some((l) => l.includes('112233'))).toBe(false);
  });

  it('does not throw when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({
      config: { smtpUrl: 'smtp://user:secret@127.0.0.1:1', mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
    });
    const result = await mailer.send({ to: 'carol@example.test', subject: 'x', text: 'y' });
    expect(result.status).toBe('queued');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row!.lastError).not.toContain('secret');
    mailer.close();
  });
});

describe('mailer outbox retry', () => {
  // A database of its own: the retry loop takes any due row, so rows left by the tests above
  // would otherwise be delivered here too.
  let own: Database;
  beforeAll(async () => {
    own = await openDatabase({ dataDir: null });
  });
  afterAll(() => own.close());

  const freePort = async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  };

  it('retries a message whose first delivery never finished once its lease lapses (the process died)', async () => {
    const at = new Date('2031-01-01T00:00:00Z');
    // What send() leaves behind when the process dies right after storing the message.
    const [row] = await own.db
      .insert(mailOutbox)
      .values({
        to: 'orphan@example.test',
        subject: 'Code',
        text: 'Code: 111111',
        status: 'pending',
        createdAt: at,
        nextAttemptAt: new Date(at.getTime() + 2 * 60_000),
      })
      .returning();
    let now = new Date(at.getTime() + 60_000);
    const mailer = createMailer({
      config: { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' },
      db: own.db,
      log,
      now: () => now,
    });
    expect(await mailer.retryDue()).toBe(0);
    now = new Date(at.getTime() + 3 * 60_000);
    expect(await mailer.retryDue()).toBe(1);
    expect(await mailer.retryDue()).toBe(0);
    expect((await peer.waitFor((m) => m.to.includes('orphan@example.test'))).text).toContain('111111');
    const [after] = await own.db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
    expect(after).toMatchObject({ status: 'sent', attempts: 1 });
    mailer.close();
  });

  it('never lets two retry loops deliver the same message', async () => {
    let now = new Date('2032-01-01T00:00:00Z');
    const config = { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' };
    const a = createMailer({ config, db: own.db, log, now: () => now });
    const b = createMailer({ config, db: own.db, log, now: () => now });
    peer.failNext(3);
    for (const n of [1, 2, 3])
      expect(
        (await a.send({ to: `twice-${n}@example.test`, subject: 'Link', text: `link ${n}` })).status,
      ).toBe('queued');
    now = new Date(now.getTime() + 61_000);
    const [sentByA, sentByB] = await Promise.all([a.retryDue(), b.retryDue()]);
    expect(sentByA + sentByB).toBe(3);
    for (const n of [1, 2, 3])
      expect(peer.received.filter((m) => m.to.includes(`twice-${n}@example.test`))).toHaveLength(1);
    a.close();
    b.close();
  });

  it('backs off by MAIL_RETRY_SECONDS, doubling, and stops after MAIL_MAX_ATTEMPTS tries', async () => {
    const start = new Date('2033-01-01T00:00:00Z');
    let now = start;
    const mailer = createMailer({
      config: {
        smtpUrl: `smtp://127.0.0.1:${await freePort()}`,
        mailFrom: 'no-reply@example.test',
        mailRetrySeconds: 10,
        mailMaxAttempts: 3,
      },
      db: own.db,
      log,
      now: () => now,
    });
    const { id } = await mailer.send({ to: 'nobody@example.test', subject: 'x', text: 'y' });
    const read = async () => (await own.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
    expect(await read()).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: new Date(start.getTime() + 10_000),
    });
    now = new Date(start.getTime() + 10_000);
    await mailer.retryDue();
    expect(await read()).toMatchObject({
      status: 'failed',
      attempts: 2,
      nextAttemptAt: new Date(now.getTime() + 20_000),
    });
    now = new Date(now.getTime() + 20_000);
    await mailer.retryDue();
    expect(await read()).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    now = new Date(now.getTime() + 24 * 3600_000);
    await mailer.retryDue();
    expect((await read()).attempts).toBe(3);
    mailer.close();
  });

  it('delivers a message sent while the SMTP server was down once it starts, exactly once', async () => {
    const port = await freePort();
    const mailer = createMailer({
      config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'no-reply@example.test', mailRetrySeconds: 1 },
      db: own.db,
      log,
    });
    const stop = mailer.startRetryLoop();
    const later = await (async () => {
      const result = await mailer.send({ to: 'late@example.test', subject: 'Code', text: 'Code: 222222' });
      expect(result.status).toBe('queued');
      return startSmtpPeer({ port });
    })();
    try {
      expect((await later.waitFor((m) => m.to.includes('late@example.test'), 10_000)).text).toContain(
        '222222',
      );
      // Two more retry rounds go by: nothing is sent again.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(later.received.filter((m) => m.to.includes('late@example.test'))).toHaveLength(1);
    } finally {
      stop();
      await mailer.idle();
      mailer.close();
      await later.close();
    }
  });
});

describe('mail stored with the caller’s rows (sendWithin)', () => {
  it('clears the body of a sent message that holds a secret, after a retry too, and keeps other bodies', async () => {
    let now = new Date('2031-01-01T00:00:00Z');
    const mailer = createMailer({
      config: { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
      now: () => now,
    });
    const rowOf = async (id: string) =>
      (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
    const secret = await mailer.send({
      to: 'secret@example.test',
      subject: 'Your code',
      text: 'Code: 313131',
      html: '<b>313131</b>',
      secret: true,
    });
    expect((await peer.waitFor((m) => m.to.includes('secret@example.test'))).text).toContain('313131');
    expect(await rowOf(secret.id)).toMatchObject({
      status: 'sent',
      holdsSecret: true,
      text: '[cleared after sending]',
      html: '[cleared after sending]',
    });

    // Refused first: the body waits in the outbox for the retry, which sends it whole, then clears it.
    peer.failNext(1);
    const retried = await mailer.send({
      to: 'secret-retry@example.test',
      subject: 'Link',
      text: 'https://example.test/plans/secret',
      secret: true,
    });
    expect(await rowOf(retried.id)).toMatchObject({
      status: 'failed',
      text: 'https://example.test/plans/secret',
    });
    now = new Date(now.getTime() + 61_000);
    // (Messages left failed by earlier tests in this database are due by now as well.)
    expect(await mailer.retryDue()).toBeGreaterThanOrEqual(1);
    expect((await peer.waitFor((m) => m.to.includes('secret-retry@example.test'))).text).toContain(
      '/plans/secret',
    );
    expect(await rowOf(retried.id)).toMatchObject({
      status: 'sent',
      text: '[cleared after sending]',
      html: null,
    });

    const plain = await mailer.send({ to: 'plain@example.test', subject: 'Hello', text: 'Nothing secret' });
    expect(await rowOf(plain.id)).toMatchObject({
      status: 'sent',
      holdsSecret: false,
      text: 'Nothing secret',
    });
    mailer.close();
  });

  it('keeps no mail from a transaction that rolled back and sends the one from a committed transaction', async () => {
    const mailer = createMailer({
      config: { smtpUrl: peer.url, mailFrom: 'no-reply@example.test' },
      db: database.db,
      log,
    });
    await expect(
      database.db.transaction(async (tx) => {
        await mailer.sendWithin(tx, { to: 'rolled-back@example.test', subject: 'Link', text: 'never' });
        throw new Error('the caller failed after storing its mail');
      }),
    ).rejects.toThrow('the caller failed');
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'rolled-back@example.test')),
    ).toEqual([]);

    const sendMail = await database.db.transaction((tx) =>
      mailer.sendWithin(tx, { to: 'committed@example.test', subject: 'Link', text: 'kept' }),
    );
    expect((await sendMail()).status).toBe('sent');
    expect((await peer.waitFor((m) => m.to.includes('committed@example.test'))).text).toContain('kept');
    expect(peer.received.some((m) => m.to.includes('rolled-back@example.test'))).toBe(false);
    mailer.close();
  });
});

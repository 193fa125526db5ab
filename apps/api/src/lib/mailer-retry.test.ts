import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { startSmtpPeer } from '../test/smtp-peer.ts';
import { freshDatabase } from '../test/test-app.ts';
import { createMailer } from './mailer.ts';
import { ctx, log, onMailTestbed } from './mail-testbed.ts';
import { startJobs } from './jobs.ts';

onMailTestbed();

describe('mailer outbox retry', () => {
  // A database of its own: the retry loop takes any due row, so rows left by other tests
  // would otherwise be delivered here too.
  let own: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database: own, drop } = await freshDatabase());
  });
  afterAll(() => drop());

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
      config: { smtpUrl: ctx.peer.url, mailFrom: 'no-reply@example.test' },
      db: own.db,
      log,
      now: () => now,
    });
    expect(await mailer.retryDue()).toBe(0);
    now = new Date(at.getTime() + 3 * 60_000);
    expect(await mailer.retryDue()).toBe(1);
    expect(await mailer.retryDue()).toBe(0);
    expect((await ctx.peer.waitFor((m) => m.to.includes('orphan@example.test'))).text).toContain('111111');
    const [after] = await own.db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
    expect(after).toMatchObject({ status: 'sent', attempts: 1 });
    mailer.close();
  });

  it('never lets two retry loops deliver the same message', async () => {
    let now = new Date('2032-01-01T00:00:00Z');
    const config = { smtpUrl: ctx.peer.url, mailFrom: 'no-reply@example.test' };
    const a = createMailer({ config, db: own.db, log, now: () => now });
    const b = createMailer({ config, db: own.db, log, now: () => now });
    ctx.peer.failNext(3);
    for (const n of [1, 2, 3]) {
      const stored = await a.send({ to: `twice-${n}@example.test`, subject: 'Link', text: `link ${n}` });
      expect((await stored.delivery).status).toBe('queued');
    }
    now = new Date(now.getTime() + 61_000);
    const [sentByA, sentByB] = await Promise.all([a.retryDue(), b.retryDue()]);
    expect(sentByA + sentByB).toBe(3);
    for (const n of [1, 2, 3])
      expect(ctx.peer.received.filter((m) => m.to.includes(`twice-${n}@example.test`))).toHaveLength(1);
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
    const { id, delivery } = await mailer.send({ to: 'nobody@example.test', subject: 'x', text: 'y' });
    await delivery;
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
    const stop = startJobs([mailer.retryJob], log);
    const later = await (async () => {
      const result = await mailer.send({ to: 'late@example.test', subject: 'Code', text: 'Code: 222222' });
      expect((await result.delivery).status).toBe('queued');
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
      await stop();
      await mailer.idle();
      mailer.close();
      await later.close();
    }
  });
});

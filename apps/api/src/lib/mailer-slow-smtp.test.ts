import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail.ts';
import { startTricklingSmtpPeer } from '../test/smtp-peer.ts';
import { createMailer } from './mailer.ts';
import { ctx, log, onMailTestbed } from './mail-testbed.ts';
import { startJobs } from './jobs.ts';

onMailTestbed();

// One try may take 1 s, so a message is leased for 2 s: the real figures (60 s, 2 min) scaled down.
const slowConfig = {
  mailFrom: 'no-reply@example.test',
  mailRetrySeconds: 1,
  mailSendTimeoutSeconds: 1,
};

const rowOf = async (id: string) =>
  (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
const copiesTo = (to: string) => ctx.peer.received.filter((m) => m.to.includes(to));

async function until(condition: () => boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe('a slow but live SMTP server', () => {
  it('cuts a delivery off after MAIL_SEND_TIMEOUT_SECONDS even when the server never stops talking', async () => {
    const trickling = await startTricklingSmtpPeer();
    const mailer = createMailer({
      config: { ...slowConfig, smtpUrl: trickling.url, mailMaxAttempts: 1 },
      db: ctx.database.db,
      log,
    });
    try {
      const started = Date.now();
      const stored = await mailer.send({ to: 'trickle@example.test', subject: 'x', text: 'y' });
      const outcome = await Promise.race([stored.delivery, sleep(5000, 'still going after 5 s')]);
      expect(outcome).toEqual({ id: stored.id, status: 'queued' });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await rowOf(stored.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'no answer within 1 s (MAIL_SEND_TIMEOUT_SECONDS); cut off',
      });
      // The connection is closed, not left to the server.
      await until(() => trickling.open() === 0, 2000);
    } finally {
      mailer.close();
      await trickling.close();
    }
  });

  it('sends one copy when the server answers only after the lease: the slow try is cut off before it lapses and the retry loops of two instances send it once', async () => {
    const a = createMailer({ config: { ...slowConfig, smtpUrl: ctx.peer.url }, db: ctx.database.db, log });
    const b = createMailer({ config: { ...slowConfig, smtpUrl: ctx.peer.url }, db: ctx.database.db, log });
    // The server takes the data, then waits 3 s to say OK: past the 1 s bound and the 2 s lease.
    const held = ctx.peer.holdNext(1, 3000);
    const started = Date.now();
    const stored = await a.send({
      to: 'slow-link@example.test',
      subject: 'Your payment link',
      text: 'https://example.test/plans/slow',
      secret: true,
    });
    await held;
    const stopA = startJobs([a.retryJob], log);
    const stopB = startJobs([b.retryJob], log);
    try {
      expect((await stored.delivery).status).toBe('queued');
      expect(Date.now() - started).toBeLessThan(2500);
      expect((await rowOf(stored.id)).lastError).toMatch(/MAIL_SEND_TIMEOUT_SECONDS/);

      const mail = await ctx.peer.waitFor((m) => m.to.includes('slow-link@example.test'), 10_000);
      expect(mail.text).toContain('/plans/slow');
      // Past the held answer and two more leases with both loops running: nothing more arrives.
      await sleep(Math.max(0, started + 3000 + 4000 - Date.now()));
      expect(copiesTo('slow-link@example.test')).toHaveLength(1);
      // The first try did reach the server, which never said OK to it: not a delivery.
      expect(ctx.peer.abandoned.filter((m) => m.to.includes('slow-link@example.test'))).toHaveLength(1);
      expect(await rowOf(stored.id)).toMatchObject({
        status: 'sent',
        attempts: 2,
        text: '[cleared after sending]',
      });
    } finally {
      await stopA();
      await stopB();
      await Promise.all([a.idle(), b.idle()]);
      a.close();
      b.close();
    }
  });

  it('never turns a message another try has sent back into one to retry when a try ends after its lease', async () => {
    // One clock for both instances, moved by the test: the lease lapses while the first try is held.
    let now = new Date('2034-01-01T00:00:00Z');
    const config = { ...slowConfig, smtpUrl: ctx.peer.url };
    const a = createMailer({ config, db: ctx.database.db, log, now: () => now });
    const b = createMailer({ config, db: ctx.database.db, log, now: () => now });
    try {
      const held = ctx.peer.holdNext(1, 2000);
      const stored = await a.send({ to: 'late-try@example.test', subject: 'Link', text: 'link' });
      await held;
      now = new Date(now.getTime() + 3000);
      // The other instance takes the message over and gets it through while the first try waits.
      expect(await b.retryDue()).toBe(1);
      expect(await rowOf(stored.id)).toMatchObject({ status: 'sent' });

      // The first try is cut off; its failure must not reopen the message.
      expect((await stored.delivery).status).toBe('queued');
      expect(await rowOf(stored.id)).toMatchObject({ status: 'sent', nextAttemptAt: null });
      now = new Date(now.getTime() + 3600_000);
      expect((await a.retryDue()) + (await b.retryDue())).toBe(0);
      await until(() => ctx.peer.abandoned.some((m) => m.to.includes('late-try@example.test')), 5000);
      expect(copiesTo('late-try@example.test')).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });
});

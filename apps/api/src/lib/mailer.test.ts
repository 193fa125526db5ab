import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail.ts';
import { createMailer, printedMail } from './mailer.ts';
import { ctx, lines, log, onMailTestbed } from './mail-testbed.ts';

onMailTestbed();

describe('mailer', () => {
  it('delivers a text and html message to the SMTP server and records it as sent', async () => {
    const mailer = createMailer({
      config: { smtpUrl: ctx.peer.url, mailFrom: 'Admin <no-reply@example.test>' },
      db: ctx.database.db,
      log,
    });
    const result = await mailer.send({
      to: 'ann@example.test',
      subject: 'Your code — ünïcode',
      text: 'Code: 123456',
      html: '<p>Code: <b>123456</b></p>',
    });
    expect((await result.delivery).status).toBe('sent');
    const mail = await ctx.peer.waitFor((m) => m.to.includes('ann@example.test'));
    expect(mail.from).toBe('no-reply@example.test');
    expect(mail.subject).toBe('Your code — ünïcode');
    expect(mail.text).toContain('Code: 123456');
    expect(mail.html).toContain('<b>123456</b>');
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    mailer.close();
  });

  it('keeps a message the SMTP server refused and sends it on a later retry', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const mailer = createMailer({
      config: { smtpUrl: ctx.peer.url, mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
      now: () => now,
    });
    ctx.peer.failNext(1);
    const result = await mailer.send({
      to: 'retry@example.test',
      subject: 'Link',
      text: 'https://example.test/plans/1',
    });
    expect((await result.delivery).status).toBe('queued');
    let [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toMatch(/451|Temporary/);

    // Not due yet: nothing is retried.
    expect(await mailer.retryDue()).toBe(0);
    now = new Date(now.getTime() + 61_000);
    expect(await mailer.retryDue()).toBe(1);
    [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await ctx.peer.waitFor((m) => m.to.includes('retry@example.test'))).text).toContain('/plans/1');
    mailer.close();
  });

  it('keeps the message in the outbox and prints its text to the log when no SMTP_URL is set, in development only', async () => {
    const dev = createMailer({
      config: { env: 'development', smtpUrl: undefined, mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
    });
    const result = await dev.send({ to: 'bob@example.test', subject: 'Your code', text: 'Code: 654321' });
    expect((await result.delivery).status).toBe('logged');
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'logged', to: 'bob@example.test', text: 'Code: 654321' });
    expect(lines.some((l) => l.includes('Code: 654321') && l.includes('bob@example.test'))).toBe(true);
    // Anywhere else a one-time code in a mail never reaches the server log.
    const prod = createMailer({
      config: { env: 'production', smtpUrl: undefined, mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
    });
    const kept = await prod.send({
      to: 'dave@example.test',
      subject: 'Your code 112233',
      text: 'Code: 112233',
    });
    expect((await kept.delivery).status).toBe('logged');
    expect(lines.at(-1)).toBe(
      'mail kept in the outbox (no SMTP_URL); its text is not logged outside development',
    );
    expect(lines.some((l) => l.includes('112233'))).toBe(false);
  });

  it('prints each message to the server output as a block with MAIL_TRANSPORT=print, and logs only its id', async () => {
    const printed: string[] = [];
    const mailer = createMailer({
      config: {
        env: 'production',
        smtpUrl: undefined,
        mailTransport: 'print',
        mailFrom: 'no-reply@example.test',
      },
      db: ctx.database.db,
      log,
      print: (block) => printed.push(block),
    });
    const before = lines.length;
    const result = await mailer.send({
      to: 'erin@example.test',
      subject: 'Your password reset code',
      text: 'Your code is 445566.\nIt is valid for 10 minutes.',
    });
    expect((await result.delivery).status).toBe('logged');
    expect(printed).toEqual([
      printedMail({
        to: 'erin@example.test',
        subject: 'Your password reset code',
        text: 'Your code is 445566.\nIt is valid for 10 minutes.',
      }),
    ]);
    expect(printed[0]).toContain(
      '\n  To: erin@example.test\n  Subject: Your password reset code\n\n    Your code is 445566.\n    It is valid for 10 minutes.\n',
    );
    expect(printed[0]).toContain('Mail (not delivered: no SMTP_URL; also on the Outbox screen)');
    expect(lines.slice(before)).toEqual(['mail printed to the server output (no SMTP_URL)']);
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row).toMatchObject({ status: 'logged', to: 'erin@example.test' });
  });

  it('does not throw when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({
      config: { smtpUrl: 'smtp://user:secret@127.0.0.1:1', mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
    });
    const result = await mailer.send({ to: 'carol@example.test', subject: 'x', text: 'y' });
    expect((await result.delivery).status).toBe('queued');
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, result.id));
    expect(row!.lastError).not.toContain('secret');
    mailer.close();
  });
});

describe('mail stored with the caller’s rows (sendWithin)', () => {
  it('clears the body of a sent message that holds a secret, after a retry too, and keeps other bodies', async () => {
    let now = new Date('2031-01-01T00:00:00Z');
    const mailer = createMailer({
      config: { smtpUrl: ctx.peer.url, mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
      now: () => now,
    });
    const rowOf = async (id: string) =>
      (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
    const secret = await mailer.send({
      to: 'secret@example.test',
      subject: 'Your code',
      text: 'Code: 313131',
      html: '<b>313131</b>',
      secret: true,
    });
    await secret.delivery;
    expect((await ctx.peer.waitFor((m) => m.to.includes('secret@example.test'))).text).toContain('313131');
    expect(await rowOf(secret.id)).toMatchObject({
      status: 'sent',
      holdsSecret: true,
      text: '[cleared after sending]',
      html: '[cleared after sending]',
    });

    // Refused first: the body waits in the outbox for the retry, which sends it whole, then clears it.
    ctx.peer.failNext(1);
    const retried = await mailer.send({
      to: 'secret-retry@example.test',
      subject: 'Link',
      text: 'https://example.test/plans/secret',
      secret: true,
    });
    expect((await retried.delivery).status).toBe('queued');
    expect(await rowOf(retried.id)).toMatchObject({
      status: 'failed',
      text: 'https://example.test/plans/secret',
    });
    now = new Date(now.getTime() + 61_000);
    // (Messages left failed by earlier tests in this ctx.database are due by now as well.)
    expect(await mailer.retryDue()).toBeGreaterThanOrEqual(1);
    expect((await ctx.peer.waitFor((m) => m.to.includes('secret-retry@example.test'))).text).toContain(
      '/plans/secret',
    );
    expect(await rowOf(retried.id)).toMatchObject({
      status: 'sent',
      text: '[cleared after sending]',
      html: null,
    });

    const plain = await mailer.send({ to: 'plain@example.test', subject: 'Hello', text: 'Nothing secret' });
    expect((await plain.delivery).status).toBe('sent');
    expect(await rowOf(plain.id)).toMatchObject({
      status: 'sent',
      holdsSecret: false,
      text: 'Nothing secret',
    });
    mailer.close();
  });

  it('keeps no mail from a transaction that rolled back and sends the one from a committed transaction', async () => {
    const mailer = createMailer({
      config: { smtpUrl: ctx.peer.url, mailFrom: 'no-reply@example.test' },
      db: ctx.database.db,
      log,
    });
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await mailer.sendWithin(tx, { to: 'rolled-back@example.test', subject: 'Link', text: 'never' });
        throw new Error('the caller failed after storing its mail');
      }),
    ).rejects.toThrow('the caller failed');
    expect(
      await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'rolled-back@example.test')),
    ).toEqual([]);

    const sendMail = await ctx.database.db.transaction((tx) =>
      mailer.sendWithin(tx, { to: 'committed@example.test', subject: 'Link', text: 'kept' }),
    );
    expect((await sendMail().delivery).status).toBe('sent');
    expect((await ctx.peer.waitFor((m) => m.to.includes('committed@example.test'))).text).toContain('kept');
    expect(ctx.peer.received.some((m) => m.to.includes('rolled-back@example.test'))).toBe(false);
    mailer.close();
  });
});

import { and, asc, eq, inArray, lte, lt } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { loggableMessage } from './loggable-error.ts';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The body holds a one-time code or a payment link: the outbox keeps it only until it is sent. */
  secret?: boolean;
};

/** What a sent secret-holding message keeps of its body in the outbox. */
export const clearedBody = '[cleared after sending]';

/** 'sent': the SMTP server took it; 'queued': SMTP failed, kept for retry; 'logged': no SMTP, outbox + log. */
export type MailResult = { id: string; status: 'sent' | 'queued' | 'logged' };

type MailLog = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};

export type MailerDeps = {
  config: Pick<Config, 'smtpUrl' | 'mailFrom'> &
    Partial<Pick<Config, 'mailRetrySeconds' | 'mailMaxAttempts' | 'env'>>;
  db: Db;
  log: MailLog;
  now?: () => Date;
};

// Bounds on one SMTP conversation, so a peer that accepts the connection and then says nothing
// cannot hold a request (or the retry loop) for nodemailer's default of minutes.
const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/**
 * A message being delivered is leased: its next_attempt_at is pushed past the longest a delivery
 * can take, so neither this process's retry loop nor another API instance's picks it up meanwhile.
 * If the process dies mid-delivery, the lease lapses and the message is retried (at least once).
 */
const leaseMs = 2 * 60_000;

/** Kept in the outbox row and logged: never the SMTP password of a connection error, nor a query's bound values. */
const describe = (error: unknown) =>
  loggableMessage(error instanceof Error ? error.message : String(error))
    .replace(/\/\/[^@\s]*@/g, '//***@')
    .slice(0, 500);

/**
 * Sends mail. With SMTP_URL, through nodemailer; a failed send stays in the outbox as 'failed' and
 * the retry loop tries again. Without SMTP_URL (the embedded default), the message is stored in the
 * outbox and its text written to the server log, so whoever runs the server can still read an OTP.
 * `send` never throws for a delivery problem: callers (OTP, payment links) must not fail with it.
 */
export function createMailer({ config, db, log, now = () => new Date() }: MailerDeps) {
  const transport = config.smtpUrl
    ? nodemailer.createTransport({ url: config.smtpUrl, ...smtpTimeouts })
    : null;
  const retryEveryMs = (config.mailRetrySeconds ?? 60) * 1000;
  const maxAttempts = config.mailMaxAttempts ?? 8;
  // Back off one retry interval, then 2, 4, 8 … intervals between tries, capped at an hour.
  const backoffMs = (attempts: number) =>
    Math.min(60 * 60_000, retryEveryMs * 2 ** Math.max(0, attempts - 1));
  const later = (ms: number) => new Date(now().getTime() + ms);
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  async function deliver(id: string, message: MailMessage, previousAttempts: number): Promise<boolean> {
    if (!transport) return false;
    const attempts = previousAttempts + 1;
    try {
      await transport.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      await db
        .update(mailOutbox)
        .set({
          status: 'sent',
          attempts,
          sentAt: now(),
          lastError: null,
          nextAttemptAt: null,
          // Delivered: the outbox no longer needs the code or link (the recipient has it).
          ...(message.secret
            ? { text: clearedBody, html: message.html === undefined ? null : clearedBody }
            : {}),
        })
        .where(eq(mailOutbox.id, id));
      return true;
    } catch (error) {
      const lastError = describe(error);
      const giveUp = attempts >= maxAttempts;
      await db
        .update(mailOutbox)
        .set({
          status: 'failed',
          attempts,
          lastError,
          nextAttemptAt: giveUp ? null : later(backoffMs(attempts)),
        })
        .where(eq(mailOutbox.id, id));
      log.warn(
        { mailId: id, to: message.to, attempts, err: lastError },
        giveUp ? 'mail failed; giving up' : 'mail failed; will retry',
      );
      return false;
    }
  }

  /**
   * Stored before any delivery attempt, leased to this send: if SMTP or this process fails from
   * here on, the retry loop still finds the message.
   */
  async function store(executor: Db, message: MailMessage): Promise<string> {
    const [row] = await executor
      .insert(mailOutbox)
      .values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        holdsSecret: message.secret ?? false,
        status: transport ? 'pending' : 'logged',
        createdAt: now(),
        nextAttemptAt: transport ? later(leaseMs) : null,
      })
      .returning({ id: mailOutbox.id });
    return row!.id;
  }

  async function dispatch(id: string, message: MailMessage): Promise<MailResult> {
    if (!transport) {
      // Mails carry one-time codes and links: their subject and text reach the server log only in
      // development, where reading the OTP from the console is the point. Elsewhere only the id.
      if (config.env === 'development') {
        log.info(
          { mailId: id, to: message.to },
          `mail (no SMTP_URL, kept in the outbox)\n--- to: ${message.to}\n--- subject: ${message.subject}\n${message.text}\n---`,
        );
      } else {
        log.info(
          { mailId: id, to: message.to },
          'mail kept in the outbox (no SMTP_URL); its text is not logged outside development',
        );
      }
      return { id, status: 'logged' };
    }
    return { id, status: (await deliver(id, message, 0)) ? 'sent' : 'queued' };
  }

  async function send(message: MailMessage): Promise<MailResult> {
    return track((async () => dispatch(await store(db, message), message))());
  }

  /**
   * Stores the message inside the caller's transaction, so it exists exactly when the caller's rows
   * do (a subscription is never saved without its payment-link mail, nor a mail without its
   * subscription). The returned function sends it: call it once the transaction has committed.
   */
  async function sendWithin(tx: Db, message: MailMessage): Promise<() => Promise<MailResult>> {
    const id = await store(tx, message);
    return () => track(dispatch(id, message));
  }

  /**
   * Tries once more every message whose time has come: failed ones after their back-off, and
   * pending ones whose first delivery never finished (the process died). Returns how many went
   * through. Rows are claimed (leased) in one statement with SKIP LOCKED, so two loops, here or in
   * another API instance, never send the same message at the same time.
   */
  async function retryDue(): Promise<number> {
    if (!transport) return 0;
    const dueIds = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          inArray(mailOutbox.status, ['pending', 'failed']),
          lte(mailOutbox.nextAttemptAt, now()),
          lt(mailOutbox.attempts, maxAttempts),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(50)
      .for('update', { skipLocked: true });
    const due = await db
      .update(mailOutbox)
      .set({ nextAttemptAt: later(leaseMs) })
      .where(inArray(mailOutbox.id, dueIds))
      .returning();
    let sent = 0;
    for (const row of due) {
      const ok = await track(
        deliver(
          row.id,
          {
            to: row.to,
            subject: row.subject,
            text: row.text,
            html: row.html ?? undefined,
            secret: row.holdsSecret,
          },
          row.attempts,
        ),
      );
      if (ok) sent += 1;
    }
    return sent;
  }

  /** Retries due mail every MAIL_RETRY_SECONDS until stopped; the timer never keeps the process alive. */
  function startRetryLoop(): () => void {
    if (!transport) return () => {};
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      retryDue()
        .catch((error: unknown) => log.error({ err: describe(error) }, 'mail retry failed'))
        .finally(() => {
          running = false;
        });
    }, retryEveryMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Resolves when every send started so far has finished (tests, graceful shutdown). */
  async function idle(): Promise<void> {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }

  return {
    send,
    sendWithin,
    retryDue,
    startRetryLoop,
    idle,
    close: () => transport?.close(),
  };
}
export type Mailer = ReturnType<typeof createMailer>;

/** Escapes text for the simple HTML part of a message. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { loggableMessage } from './loggable-error.ts';
import { createMailOutbox, type Claimed, type MailMessage } from './mail-outbox.ts';
import type { Job } from './jobs.ts';

export type { MailMessage } from './mail-outbox.ts';

/** 'sent': the SMTP server took it; 'queued': not this time, kept for retry; 'logged': no SMTP, outbox + log. */
export type MailResult = { id: string; status: 'sent' | 'queued' | 'logged' };

/**
 * A message committed to the outbox. Its first delivery has started and `delivery` settles when that
 * try is over (it never rejects); a request never waits for it, so its answer does not depend on
 * how fast the SMTP server is. Tests await it, or `mailer.idle()`.
 */
export type StoredMail = { id: string; delivery: Promise<MailResult> };

type MailLog = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};

export type MailerDeps = {
  config: Pick<Config, 'smtpUrl' | 'mailFrom'> &
    Partial<
      Pick<
        Config,
        'mailRetrySeconds' | 'mailMaxAttempts' | 'mailSendTimeoutSeconds' | 'env' | 'mailTransport'
      >
    >;
  db: Db;
  log: MailLog;
  now?: () => Date;
  /** Where MAIL_TRANSPORT=print writes each message: the server's output. */
  print?: (block: string) => void;
};

/**
 * A message as `npm start` prints it without SMTP (issue 35 item 3): a block that stands out from
 * the log lines, as the first admin's password does, so a newcomer reads a reset code there.
 */
export function printedMail(message: Pick<MailMessage, 'to' | 'subject' | 'text'>): string {
  const rule = `  ${'-'.repeat(72)}`;
  return [
    '',
    `${rule}\n  Mail (not delivered: no SMTP_URL; also on the Outbox screen)`,
    `  To: ${message.to}`,
    `  Subject: ${message.subject}`,
    '',
    ...message.text.split('\n').map((line) => `    ${line}`),
    rule,
    '',
    '',
  ].join('\n');
}

/**
 * Nodemailer's own limits on the steps of one conversation (at most the whole bound each), so a peer
 * that accepts the connection and then says nothing is noticed early. They are idle timeouts: a
 * peer that answers slowly but keeps talking is stopped by the overall deadline in `attempt`.
 */
const smtpTimeouts = (boundMs: number) => ({
  connectionTimeout: Math.min(10_000, boundMs),
  greetingTimeout: Math.min(10_000, boundMs),
  socketTimeout: Math.min(30_000, boundMs),
});

/** Kept in the outbox row and logged: never the SMTP password of a connection error, nor a query's bound values. */
const describe = (error: unknown) =>
  loggableMessage(error instanceof Error ? error.message : String(error))
    .replace(/\/\/[^@\s]*@/g, '//***@')
    .slice(0, 500);

/**
 * Sends mail. Every message is committed to the outbox first; with SMTP_URL its delivery then runs
 * in the background (nodemailer), and a failed try stays 'failed' for the retry loop. Without
 * SMTP_URL (the embedded default) the outbox row is the delivery and its text goes to the server
 * log, so whoever runs the server can still read an OTP. Nothing here waits for, or throws because
 * of, the SMTP server: callers (OTP, payment links, notices) answer as soon as the row is stored.
 */
export function createMailer({
  config,
  db,
  log,
  now = () => new Date(),
  print = (block) => void process.stdout.write(block),
}: MailerDeps) {
  // One try (connection, greeting, the whole SMTP conversation) is cut off after this long...
  const sendTimeoutMs = (config.mailSendTimeoutSeconds ?? 60) * 1000;
  // ...and holds its message for twice as long: next_attempt_at is pushed that far ahead, so neither
  // this process's retry loop nor another API instance's takes the message while a try may still be
  // under way, and the try's own bookkeeping has the second half to land. If the process dies
  // mid-try the lease lapses and the message is retried (at least once, decision 018).
  const leaseMs = 2 * sendTimeoutMs;
  const transport = config.smtpUrl
    ? nodemailer.createTransport({ url: config.smtpUrl, ...smtpTimeouts(sendTimeoutMs) })
    : null;
  const retryEveryMs = (config.mailRetrySeconds ?? 60) * 1000;
  const maxAttempts = config.mailMaxAttempts ?? 8;
  // Back off one retry interval, then 2, 4, 8 … intervals between tries, capped at an hour.
  const backoffMs = (attempts: number) =>
    Math.min(60 * 60_000, retryEveryMs * 2 ** Math.max(0, attempts - 1));
  const outbox = createMailOutbox({ db, now, leaseMs, maxAttempts });
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  /** One try at one claimed message, cut off after MAIL_SEND_TIMEOUT_SECONDS, well inside its lease. */
  async function attempt(claimed: Claimed): Promise<boolean> {
    const { id, message } = claimed;
    const attempts = claimed.attempts + 1;
    const deadline = AbortSignal.timeout(sendTimeoutMs);
    try {
      await transport!.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        // Aborting closes the connection: a server that has not said OK to the data has not taken
        // the message. One that took it and answered too late gets it again (at least once).
        signal: deadline,
      });
    } catch (error) {
      const lastError = deadline.aborted
        ? `no answer within ${sendTimeoutMs / 1000} s (MAIL_SEND_TIMEOUT_SECONDS); cut off`
        : describe(error);
      const giveUp = attempts >= maxAttempts;
      const written = await outbox.recordFailure(claimed, {
        attempts,
        lastError,
        nextAttemptAt: giveUp ? null : outbox.later(backoffMs(attempts)),
      });
      log.warn(
        { mailId: id, to: message.to, attempts, err: lastError },
        !written
          ? 'mail failed after its lease had lapsed; the message is another try’s now'
          : giveUp
            ? 'mail failed; giving up'
            : 'mail failed; will retry',
      );
      return false;
    }
    await outbox.recordSent(claimed, attempts);
    return true;
  }

  /** The first try of a just-committed message; none when another try has taken it already. */
  async function firstAttempt(id: string, stored: Date): Promise<MailResult> {
    const claimed = await outbox.claimStored(id, stored);
    return { id, status: claimed && (await attempt(claimed)) ? 'sent' : 'queued' };
  }

  /** Starts the delivery of a committed message and returns at once. */
  function start({ id, lease }: { id: string; lease: Date | null }, message: MailMessage): StoredMail {
    if (!transport || !lease) {
      // Mails carry one-time codes and links: their subject and text reach the server log only in
      // development, where reading the OTP from the console is the point. Elsewhere only the id.
      // MAIL_TRANSPORT=print (the embedded default) prints the message itself instead, outside the
      // log: whoever runs the server reads it there; log files and collectors get the id only.
      if (config.mailTransport === 'print') {
        print(printedMail(message));
        log.info({ mailId: id, to: message.to }, 'mail printed to the server output (no SMTP_URL)');
      } else if (config.env === 'development') {
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
      return { id, delivery: Promise.resolve({ id, status: 'logged' }) };
    }
    const delivery = track(
      firstAttempt(id, lease).catch((error: unknown): MailResult => {
        // The database failed around the try: the lease lapses and the retry loop takes it up.
        log.error({ mailId: id, err: describe(error) }, 'mail delivery failed; left to the retry loop');
        return { id, status: 'queued' };
      }),
    );
    return { id, delivery };
  }

  /** Stores the message (committed on return) and starts its delivery without waiting for it. */
  async function send(message: MailMessage): Promise<StoredMail> {
    return track((async () => start(await outbox.store(db, message, transport !== null), message))());
  }

  /**
   * Stores the message inside the caller's transaction, so it exists exactly when the caller's rows
   * do (a subscription is never saved without its payment-link mail, nor a mail without its
   * subscription). The returned function starts its delivery and returns at once: call it once the
   * transaction has committed, and do not wait for the delivery.
   */
  async function sendWithin(tx: Db, message: MailMessage): Promise<() => StoredMail> {
    const stored = await outbox.store(tx, message, transport !== null);
    return () => start(stored, message);
  }

  /** Tries once more up to 50 messages whose time has come, one after the other. Returns how many went through. */
  async function retryDue(): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    for (let i = 0; i < 50; i++) {
      const claimed = await outbox.claimDue();
      if (!claimed) break;
      if (await track(attempt(claimed))) sent += 1;
    }
    return sent;
  }

  /**
   * The outbox's retries as a job (`lib/jobs.ts`), every MAIL_RETRY_SECONDS; none without SMTP,
   * where every message stays in the outbox.
   */
  const retryJob: Job = {
    name: 'mail retry',
    everySeconds: transport ? retryEveryMs / 1000 : 0,
    run: retryDue,
  };

  /** Resolves when every send started so far has finished (tests, graceful shutdown). */
  async function idle(): Promise<void> {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }

  return {
    send,
    sendWithin,
    retryDue,
    retryJob,
    idle,
    close: () => transport?.close(),
  };
}
export type Mailer = ReturnType<typeof createMailer>;

/** Escapes text for the simple HTML part of a message. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

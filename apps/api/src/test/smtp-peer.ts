import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  /** The whole message as received (headers and MIME body). */
  raw: string;
  /** The text/plain part, decoded (quoted-printable and base64 are undone). */
  text: string;
  /** The text/html part, decoded, or '' when there is none. */
  html: string;
};

export type SmtpPeer = {
  /** smtp://127.0.0.1:<port> — pass as SMTP_URL. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves with the first message (already received or arriving later) that matches. */
  waitFor: (match: (m: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  /** Makes the next `count` messages fail with a 451 (to test the outbox retry). */
  failNext: (count: number) => void;
  /**
   * A slow but live server: the next `count` messages are received whole, then answered only after
   * `delayMs`. One whose client hung up meanwhile is not kept (it goes to `abandoned`): the server
   * never said OK, so the message was not taken. Resolves once the first of them is being held.
   */
  holdNext: (count: number, delayMs: number) => Promise<void>;
  /** Messages received whole but dropped because the client left before the held answer. */
  abandoned: ReceivedMail[];
  close: () => Promise<void>;
};

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const soft = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at === -1 ? part : part.slice(0, at);
  const body = at === -1 ? '' : part.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body };
}

/** A small MIME reader: enough for nodemailer's single-part and multipart/alternative messages. */
function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitHeaders(raw);
  const subject = decodeWords(headers.get('subject') ?? '');
  const parts: { type: string; text: string }[] = [];
  const walk = (h: Map<string, string>, b: string) => {
    const type = h.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      for (const chunk of b.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith('--')) break;
        const p = splitHeaders(chunk.replace(/^\r?\n/, ''));
        walk(p.headers, p.body);
      }
    } else {
      parts.push({
        type: type.toLowerCase(),
        text: decodeBody(b, h.get('content-transfer-encoding')).replace(/\r?\n$/, ''),
      });
    }
  };
  walk(headers, body);
  return {
    subject,
    text: parts.find((p) => p.type.startsWith('text/plain'))?.text ?? '',
    html: parts.find((p) => p.type.startsWith('text/html'))?.text ?? '',
  };
}

/** Undoes RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header. */
function decodeWords(s: string): string {
  return s.replace(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g,
    (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/**
 * A real SMTP server on a free local port that keeps what it receives: tests point SMTP_URL at it
 * instead of mocking the mailer. No TLS and no auth, so nodemailer talks plain SMTP to it.
 */
export async function startSmtpPeer(opts: { port?: number } = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  let failures = 0;
  const abandoned: ReceivedMail[] = [];
  const hold = { count: 0, delayMs: 0, started: () => {} };
  const closedSessions = new Set<string>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          const error = new Error('Temporary failure, try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMessage(raw),
        };
        const keep = () => {
          received.push(mail);
          for (const w of [...waiters]) {
            if (w.match(mail)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(mail);
            }
          }
          callback();
        };
        if (hold.count === 0) return keep();
        hold.count -= 1;
        hold.started();
        const sessionId = session.id;
        setTimeout(() => {
          if (closedSessions.has(sessionId)) abandoned.push(mail);
          else keep();
        }, hold.delayMs);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A fixed port lets a test point SMTP_URL at a peer that only starts later (SMTP down, then up).
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    waitFor(match, timeoutMs = 10_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: ReceivedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    failNext(count) {
      failures = count;
    },
    holdNext(count, delayMs) {
      return new Promise<void>((resolve) => Object.assign(hold, { count, delayMs, started: resolve }));
    },
    abandoned,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A server that is never silent and never done: it greets, then answers EHLO with one more "250-"
 * line every `everyMs`, for ever. Nodemailer's timeouts (connection, greeting, socket idle) never
 * fire against it; only an overall deadline ends a delivery. `open()` counts its live connections.
 */
export async function startTricklingSmtpPeer(
  everyMs = 200,
): Promise<{ url: string; open: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      if (timer || !/^(EHLO|HELO) /i.test(chunk.toString())) return;
      timer = setInterval(() => socket.write('250-still thinking\r\n'), everyMs);
    });
    socket.write('220 slow.example.test ESMTP\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    open: () => sockets.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/*
 * The operator's line to a running server on the embedded database (issue 35 item 4). PGlite is
 * opened by one process only, so a command such as `npm run admin:reset-password` cannot open the
 * database while the server has it: it asks the server instead, over a Unix socket in DATA_DIR that
 * only the server's own OS user can open (mode 0600): whoever can, could read the database files
 * in the same folder anyway. One JSON line asks, one JSON line answers. On PostgreSQL the commands
 * open the database themselves, server running or not (npm run backup then points to pg_dump).
 */

type OperatorRequest =
  | { command: 'reset-password'; email: string }
  // npm run backup: the server writes a backup of its data to `out` (an absolute path; lib/backup).
  | { command: 'backup'; out: string }
  // npm run audit:verify: the server verifies the audit trail's hash chains (modules/audit-chain).
  | { command: 'verify-audit' };
/** What the server does for each kind of request; a kind without a handler is refused. */
type Handlers = {
  [C in OperatorRequest['command']]?: (request: Extract<OperatorRequest, { command: C }>) => Promise<unknown>;
};

const isRequest = (request: unknown): request is OperatorRequest => {
  const r = request as Partial<Record<string, unknown>> | null;
  if (r?.command === 'reset-password') return typeof r.email === 'string';
  if (r?.command === 'backup') return typeof r.out === 'string' && path.isAbsolute(r.out);
  if (r?.command === 'verify-audit') return true;
  return false;
};

export const operatorSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'operator.sock');

/** Listens on DATA_DIR/operator.sock; a socket left by a server that died is replaced. */
export async function listenForOperator(
  dataDir: string,
  handlers: Handlers,
  log: { warn: (message: string) => void },
): Promise<{ close: () => Promise<void> }> {
  const socketPath = operatorSocketPath(dataDir);
  const server = net.createServer((connection) => {
    let buffered = '';
    let asked = false;
    connection.setEncoding('utf8');
    connection.on('error', () => {});
    connection.on('data', (chunk: string) => {
      if (asked) return;
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > 10_000) connection.destroy();
        return;
      }
      asked = true;
      void answer(buffered.slice(0, end)).then((reply) => connection.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const answer = async (line: string) => {
    try {
      const request: unknown = JSON.parse(line);
      if (!isRequest(request)) return { error: 'unknown command' };
      const handle = handlers[request.command] as ((r: OperatorRequest) => Promise<unknown>) | undefined;
      if (!handle) return { error: `this server does not take ${request.command}` };
      return await handle(request);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  // A socket file left by a server that did not shut down would refuse the listen.
  if (!(await askServer(socketPath, null))) rmSync(socketPath, { force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    chmodSync(socketPath, 0o600);
  } catch (error) {
    log.warn(
      `Operator commands (npm run admin:reset-password, npm run backup, npm run audit:verify) cannot reach this server: ${socketPath}: ${(error as Error).message}`,
    );
    return { close: async () => {} };
  }
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends one request to the server listening in DATA_DIR; null when none is (no socket, or one a
 * stopped server left behind). With a null request it only checks that one listens.
 */
export function askServer(socketPath: string, request: OperatorRequest | null): Promise<unknown> {
  return new Promise((resolve) => {
    const connection = net.connect(socketPath);
    let buffered = '';
    connection.setEncoding('utf8');
    connection.once('error', () => resolve(null));
    connection.once('connect', () => {
      if (request === null) {
        connection.destroy();
        resolve(true);
        return;
      }
      connection.write(`${JSON.stringify(request)}\n`);
    });
    connection.on('data', (chunk: string) => (buffered += chunk));
    connection.once('end', () => {
      try {
        resolve(JSON.parse(buffered));
      } catch {
        resolve(null);
      }
    });
  });
}

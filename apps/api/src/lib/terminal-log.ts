/*
 * The server's log as a person at a terminal reads it (issue 35 item 10): one short line per event
 * instead of pino's JSON, and the flow of ordinary requests (the console's polls, the machines'
 * check-ins: about one a second with the demo fleet) folded into one line a minute. A request that
 * failed (4xx, 5xx) or took a second or more still gets its own line. The minute's line is written
 * with the first line after the minute is up (no timer of its own: a quiet server has nothing to
 * fold). LOG_FORMAT=json, or output that is not a terminal, keeps the JSON lines (config.ts).
 */

type Line = Record<string, unknown> & { level?: number; time?: number; msg?: string; reqId?: string };

const levels: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino's own fields, and the request fields a request line shows its own way. */
const hidden = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime']);
const slowMs = 1_000;

export type TerminalLog = { write: (line: string) => void; flush: () => void };

export function createTerminalLog({
  out,
  now = Date.now,
  summaryEveryMs = 60_000,
}: {
  out: (text: string) => void;
  now?: () => number;
  summaryEveryMs?: number;
}): TerminalLog {
  /** The request line of each request still running (pino writes it apart from the answer). */
  const running = new Map<string, string>();
  let fromMachines = 0;
  let fromOthers = 0;
  let since = now();

  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  const print = (ms: number, level: number, text: string) =>
    out(`${clock(ms)} ${levels[level] ?? String(level).padEnd(5)} ${text}\n`);
  const fields = (line: Line) =>
    Object.entries(line)
      .filter(([k, v]) => !hidden.has(k) && v !== undefined && v !== null)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');

  function flush() {
    since = now();
    const total = fromMachines + fromOthers;
    if (total === 0) return;
    print(
      now(),
      30,
      `${total} request${total === 1 ? '' : 's'} answered (${fromMachines} from machines, ${fromOthers} from the console and others)`,
    );
    fromMachines = 0;
    fromOthers = 0;
  }
  function write(text: string) {
    if (now() - since >= summaryEveryMs) flush();
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      out(text.endsWith('\n') ? text : `${text}\n`);
      return;
    }
    const at = typeof line.time === 'number' ? line.time : now();
    const level = typeof line.level === 'number' ? line.level : 30;
    const req = line.req as { method?: string; url?: string } | undefined;
    if (line.msg === 'incoming request' && req && line.reqId) {
      if (running.size >= 10_000) running.delete(running.keys().next().value!);
      running.set(line.reqId, `${req.method} ${req.url}`);
      return;
    }
    const res = line.res as { statusCode?: number } | undefined;
    if (line.msg === 'request completed' && res && line.reqId) {
      const request = running.get(line.reqId) ?? '(request)';
      running.delete(line.reqId);
      const ms = Number(line.responseTime ?? 0);
      const status = res.statusCode ?? 0;
      if (status < 400 && ms < slowMs && level <= 30) {
        if (request.includes(' /api/v1/app/')) fromMachines++;
        else fromOthers++;
        return;
      }
      print(at, status >= 500 ? 50 : Math.max(level, 40), `${request} ${status} ${Math.round(ms)} ms`);
      return;
    }
    // An error's stack reads best as the lines it is, under the message.
    const err = line.err as { message?: string; stack?: string } | undefined;
    delete line.err;
    const rest = fields(line);
    const about = err?.stack
      ? `\n${err.stack}`
      : err?.message && err.message !== line.msg
        ? `  ${err.message}`
        : '';
    print(at, level, `${line.msg ?? ''}${rest ? `  ${rest}` : ''}${about}`);
  }

  return { write, flush };
}

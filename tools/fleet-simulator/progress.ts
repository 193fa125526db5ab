/*
 * Progress on stderr (stdout keeps only the summary line): a bar redrawn in place on a terminal,
 * a plain line every few seconds otherwise (CI logs, pipes).
 */

export type Progress = {
  phase: (name: string, total: number) => void;
  advance: (n?: number) => void;
  note: (text: string) => void;
  done: () => void;
};

export function createProgress(stream: NodeJS.WriteStream = process.stderr, intervalMs = 2_000): Progress {
  const tty = stream.isTTY === true;
  let name = '';
  let total = 0;
  let count = 0;
  let note = '';
  let lastPlain = 0;

  const line = () => {
    const share = total === 0 ? 1 : Math.min(1, count / total);
    const width = 24;
    const filled = Math.round(share * width);
    const bar = tty ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    return `${name.padEnd(12)} ${bar}${count}/${total}${note ? `  ${note}` : ''}`;
  };
  const draw = (force = false) => {
    if (tty) {
      stream.write(`\r\x1b[2K${line().slice(0, (stream.columns ?? 100) - 1)}`);
      return;
    }
    const now = Date.now();
    if (force || now - lastPlain >= intervalMs) {
      lastPlain = now;
      stream.write(`${line()}\n`);
    }
  };

  return {
    phase(next, size) {
      // On a terminal the finished bar stays on its own line; plain output printed it at 100 % already.
      if (tty && name) {
        draw(true);
        stream.write('\n');
      }
      name = next;
      total = size;
      count = 0;
      note = '';
      draw(true);
    },
    advance(n = 1) {
      count += n;
      draw(count >= total);
    },
    note(text) {
      note = text;
      draw();
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}

/** For tests and --quiet: nothing shown. */
export const silentProgress: Progress = { phase() {}, advance() {}, note() {}, done() {} };

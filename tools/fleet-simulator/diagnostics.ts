import { gzipSync } from 'node:zlib';

/*
 * The app's own log (what it did, line by line, on the machine's clock) and the diagnostics file an
 * upload-diagnostics command asks for (docs/device-api.md §4c): the log lines of the last minutes and
 * the app's state, gzipped. The log keeps its newest lines only, as an app's rotating log file does.
 */

type Line = { at: number; text: string };

export class AppLog {
  private readonly lines: Line[] = [];

  constructor(
    private readonly now: () => Date,
    private readonly keep = 2_000,
  ) {}

  add(text: string, at: Date = this.now()) {
    this.lines.push({ at: at.getTime(), text });
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }

  /** The lines of the last `minutes` (by the machine's clock), oldest first, as the file writes them. */
  since(minutes: number): string[] {
    const from = this.now().getTime() - minutes * 60_000;
    return this.lines.filter((l) => l.at >= from).map((l) => `${new Date(l.at).toISOString()} ${l.text}`);
  }
}

/** The file: a header, the log lines, then the state as JSON; gzipped (application/gzip). */
export function diagnosticsFile(lines: string[], state: Record<string, unknown>, minutes: number) {
  const text = [
    `# diagnostics: the app's log of the last ${minutes} minutes (${lines.length} lines), then its state`,
    ...lines,
    '# state',
    JSON.stringify(state, null, 2),
    '',
  ].join('\n');
  return gzipSync(text);
}

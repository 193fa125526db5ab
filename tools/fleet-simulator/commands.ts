import { commandIsDisruptive, type AppCommand, type CommandResultBody } from '@app/contract/commands';
import type { Rng } from '@app/fake-data/random';
import { ApiError } from './http.ts';

/*
 * The app's rule for commands (docs/device-api.md §4c, decision 077): a command is handed over on
 * every call until its result arrives, so the app keeps the ids it has run (a bounded memory, kept
 * on its disk) and runs each once: one handed over again is reported again, from memory, never run
 * again. Nothing is started past its `expiresAt`. What each kind does is the machine's (machine.ts);
 * this file decides whether and when, reports, and counts.
 */

export type CommandOutcome = { ok: boolean; message: string };

/** What a kind did: its result, and what the app does once that is reported (a restart, a new enrolment). */
export type CommandStep = CommandOutcome & { afterReport?: () => Promise<void> };

/** What the app says when a command fails now and then (commandFailShare), so the console shows that state too. */
export const busyMessage = 'storage busy, try again';

type Remembered = CommandOutcome | 'running' | 'not started';

export type CommandRunnerOptions = {
  report: (id: string, result: CommandResultBody) => Promise<unknown>;
  /** What the kind does (machine.ts). */
  perform: (command: AppCommand) => Promise<CommandStep>;
  /** The machine's clock. */
  now: () => Date;
  /** The draw for the odd failure: the machine's seed, forked, so the fake data stays as it was. */
  random: Rng;
  /** Share of non-disruptive commands that fail with busyMessage instead of running. */
  failShare: number;
  /** A line in the app's log. */
  log: (text: string) => void;
  /** How many ids it keeps. */
  memory?: number;
};

export class CommandRunner {
  /** Ids it has run or is running (or did not start), oldest first. */
  private readonly seen = new Map<string, Remembered>();
  /** What a command does once its result is reported (a re-enrolment), until the report got through. */
  private readonly waitingForReport = new Map<string, () => Promise<void>>();
  /** Commands started (an expired one is not). */
  run = 0;
  /** Of those, the ones reported as failed. */
  failed = 0;
  /** Commands handed over again after they ran, and reported again instead. */
  reportedAgain = 0;

  constructor(private readonly options: CommandRunnerOptions) {}

  /** Runs what is new, one at a time in the order given; reports again what ran before. */
  async take(commands: readonly AppCommand[]) {
    for (const command of commands) await this.one(command);
  }

  /** The finished commands' outcomes, to keep on disk (keeps() / restore() in machine.ts). */
  remembered(): [string, CommandOutcome][] {
    const done: [string, CommandOutcome][] = [];
    for (const [id, outcome] of this.seen) if (typeof outcome === 'object') done.push([id, outcome]);
    return done;
  }

  restore(done: readonly [string, CommandOutcome][]) {
    for (const [id, outcome] of done) this.remember(id, outcome);
  }

  private async one(command: AppCommand) {
    const { _id: id, kind } = command;
    const before = this.seen.get(id);
    if (typeof before === 'object') {
      // Its answer was lost on the way, or the report was: the same result again, nothing run.
      this.reportedAgain++;
      this.options.log(`command ${id} (${kind}) handed over again: reported again, not run again`);
      await this.report(command, before);
      return;
    }
    // Running now (a heartbeat and a long-poll both handed it over), or not started: nothing to do.
    if (before !== undefined) return;

    if (Date.parse(command.expiresAt) <= this.options.now().getTime()) {
      this.remember(id, 'not started');
      this.options.log(`command ${id} (${kind}) expired at ${command.expiresAt}: not started`);
      return;
    }
    this.remember(id, 'running');
    this.run++;
    this.options.log(`command ${id} (${kind}) started`);
    let step: CommandStep;
    if (!commandIsDisruptive(kind) && this.options.random.chance(this.options.failShare))
      step = { ok: false, message: busyMessage };
    else
      try {
        step = await this.options.perform(command);
      } catch (err) {
        step = { ok: false, message: (err as Error).message.slice(0, 2000) };
      }
    const outcome = { ok: step.ok, message: step.message };
    if (!outcome.ok) this.failed++;
    this.remember(id, outcome);
    if (step.afterReport) this.waitingForReport.set(id, step.afterReport);
    await this.report(command, outcome);
  }

  /**
   * Reports a result, then does what waits for it. A refusal of the result (409: the command expired
   * or was finished meanwhile; 404) is only logged; a report that did not get through (thrown) is
   * made again when the command is handed over again, and what waits for it waits with it.
   */
  private async report(command: AppCommand, outcome: CommandOutcome) {
    const label = `command ${command._id} (${command.kind})`;
    try {
      await this.options.report(command._id, outcome);
      this.options.log(`${label} reported: ${outcome.ok ? 'ok' : 'failed'}, ${outcome.message}`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500 || err.status === 429) throw err;
      this.options.log(`${label}: the server refused its result (${err.status} ${err.msg})`);
    }
    const next = this.waitingForReport.get(command._id);
    this.waitingForReport.delete(command._id);
    await next?.();
  }

  private remember(id: string, what: Remembered) {
    this.seen.delete(id);
    this.seen.set(id, what);
    const keep = this.options.memory ?? 500;
    for (const oldest of this.seen.keys()) {
      if (this.seen.size <= keep) break;
      this.seen.delete(oldest);
    }
  }
}

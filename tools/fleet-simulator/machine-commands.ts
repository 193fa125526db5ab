import { maxCommandWaitSeconds, type AppCommand } from '@app/contract/commands';
import type { Rng } from '@app/fake-data/random';
import { CommandRunner, type CommandStep } from './commands.ts';
import type { AppSession } from '@app/contract/device-api';
import type { DeviceClient } from './device-client.ts';
import { diagnosticsFile, type AppLog } from './diagnostics.ts';
import type { Ledger } from './ledger.ts';
import type { HeldLicence } from './licence.ts';

/*
 * What each command kind does to a simulated machine (docs/device-api.md §4c), and the two ways it
 * receives them: the heartbeat's answer (machine.ts) and the long-poll between its other work. The
 * run-once rule, the odd failure and the reports are the runner's (commands.ts).
 */

/** The machine as its commands need it (machine.ts's SimMachine). */
export type CommandHost = {
  readonly label: string;
  readonly client: DeviceClient;
  readonly ledger: Ledger;
  readonly appLog: AppLog;
  readonly licence: Pick<HeldLicence, 'claims'>;
  readonly app: { code: number; name: string };
  readonly doctors: readonly { session: AppSession }[];
  readonly online: boolean;
  readonly enrolled: boolean;
  readonly backlog: number;
  readonly heartbeats: number;
  readonly refusedStarts: number;
  readonly heldStarts: number;
  /** A safety hold's reason while it holds, else null. */
  hold: string | null;
  now: () => Date;
  sync: () => Promise<number>;
  signInAgain: () => Promise<void>;
  refreshLicence: () => Promise<void>;
};

export type MachineCommandsOptions = {
  random: Rng;
  failShare: number;
  /** A new enrolment code, as the technician gets one from the console (re-enrol); none: it waits. */
  enrolmentCode?: (deviceId: string) => Promise<string>;
};

export class MachineCommands {
  readonly runner: CommandRunner;
  /** Times the app restarted (restart-app). */
  restarts = 0;

  constructor(
    private readonly host: CommandHost,
    private readonly options: MachineCommandsOptions,
  ) {
    this.runner = new CommandRunner({
      report: (id, result) => host.client.reportCommand(id, result),
      perform: (command) => this.perform(command),
      now: host.now,
      random: options.random,
      failShare: options.failShare,
      log: (text) => host.appLog.add(text),
    });
  }

  /** Runs what is new, reports again what ran before; a report that fails is a surprise (and is made again). */
  async take(commands: readonly AppCommand[]) {
    if (commands.length === 0) return;
    try {
      await this.runner.take(commands);
    } catch (err) {
      this.host.ledger.surprises.push(`${this.host.label} commands: ${(err as Error).message}`);
    }
  }

  /**
   * Waits for commands with the long-poll for up to `ms` (whole seconds of it), running each as it
   * comes, as the app does between its other work. A poll that fails ends the wait (the next
   * heartbeat hands the commands over as well).
   */
  async waitFor(ms: number) {
    const { host } = this;
    const until = Date.now() + ms;
    // A bound on polls: a command whose report keeps failing is handed over at once each time.
    for (let polls = 0; polls < 10 && host.enrolled && host.online; polls++) {
      const wait = Math.min(maxCommandWaitSeconds, Math.floor((until - Date.now()) / 1000));
      if (wait < 1) return;
      let commands: AppCommand[];
      try {
        commands = await host.client.pollCommands(wait);
      } catch (err) {
        host.ledger.surprises.push(`${host.label} commands: ${(err as Error).message}`);
        return;
      }
      await this.take(commands);
    }
  }

  /** What each kind does; the runner has decided it runs now, once. */
  private async perform(command: AppCommand): Promise<CommandStep> {
    const { host } = this;
    const { params } = command;
    switch (command.kind) {
      case 'sync-now': {
        const held = host.backlog;
        const failed = await host.sync();
        return failed === 0
          ? { ok: true, message: `synced ${held} items` }
          : { ok: false, message: `synced ${held - failed} items, ${failed} kept to send again` };
      }
      case 'upload-diagnostics': {
        const minutes = typeof params.minutes === 'number' ? params.minutes : 60;
        const lines = host.appLog.since(minutes);
        const file = diagnosticsFile(lines, this.state(), minutes);
        await host.client.uploadDiagnostics(command._id, file);
        return { ok: true, message: `uploaded ${lines.length} log lines (${file.length} bytes)` };
      }
      case 'restart-app':
        return { ok: true, message: 'restarting', afterReport: () => this.restart() };
      case 'safety-hold':
        host.hold = typeof params.reason === 'string' && params.reason ? params.reason : 'no reason given';
        host.appLog.add(`safety hold: ${host.hold}`);
        return { ok: true, message: 'on hold: no treatment starts' };
      case 'release-hold': {
        const was = host.hold;
        host.hold = null;
        host.appLog.add('safety hold released');
        return { ok: true, message: was === null ? 'was not on hold' : 'hold released' };
      }
      case 're-enrol':
        return { ok: true, message: 'enrolling again', afterReport: () => this.enrolAgain() };
    }
  }

  /**
   * The app starts again. What it keeps on disk stays (credential, outbox, hold, the commands it
   * ran); its people sign in again and it fetches its licence, as at any start. A restart never
   * comes during a treatment: the heartbeat says busy, and the server holds it until it ends.
   */
  private async restart() {
    this.restarts++;
    this.host.appLog.add('app restarting');
    await this.host.signInAgain();
    await this.host.refreshLicence();
  }

  /** re-enrol: the credential goes; a new code comes from the console when the simulator may ask for one. */
  private async enrolAgain() {
    const { client, appLog } = this.host;
    const deviceId = client.deviceId;
    client.forgetEnrolment();
    if (!this.options.enrolmentCode || !deviceId) {
      appLog.add('credential dropped: waiting for an enrolment code');
      return;
    }
    appLog.add('credential dropped: the technician issues a new enrolment code');
    await this.enrolWith(await this.options.enrolmentCode(deviceId));
  }

  /** Enrols with a new code; its people sign in again (the new enrolment ended their sessions). */
  async enrolWith(code: string) {
    await this.host.client.enrol(code);
    this.host.appLog.add(`enrolled again as ${this.host.client.machineNumber}`);
    await this.host.signInAgain();
    await this.host.refreshLicence();
  }

  /** The state a diagnostics file carries, beside the log lines. */
  private state() {
    const { host, runner } = this;
    const claims = host.licence.claims;
    return {
      machine: host.label,
      deviceId: host.client.deviceId,
      machineNumber: host.client.machineNumber,
      serialNumber: host.client.serialNumber,
      app: host.app,
      clock: host.now().toISOString(),
      online: host.online,
      enrolled: host.enrolled,
      backlog: host.backlog,
      hold: host.hold,
      licence: claims && { state: claims.state, locked: claims.locked, ver: claims.ver, exp: claims.exp },
      people: host.doctors.length,
      heartbeats: host.heartbeats,
      restarts: this.restarts,
      refusedStarts: host.refusedStarts,
      heldStarts: host.heldStarts,
      commands: { run: runner.run, failed: runner.failed },
    };
  }
}

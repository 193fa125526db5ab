import { commandMessages } from '@app/contract/commands';
import type { City } from '@app/fake-data/places';
import type { CommandOutcome } from './commands.ts';
import { DeviceClient } from './device-client.ts';
import { AppLog } from './diagnostics.ts';
import { fakeAccessLog, fakeErrorLog, fakePatient, fakeTreatment, placeOf } from './fake-data.ts';
import { newLedger } from './ledger.ts';
import { AppliedSettings } from './app-settings.ts';
import { checkForUpdate } from './app-update-check.ts';
import { HeldLicence } from './licence.ts';
import type { MachineOptions } from './machine-options.ts';
import { MachineCommands } from './machine-commands.ts';
import { Outbox } from './outbox.ts';
import { People, type Login } from './people.ts';

/*
 * One simulated machine running the app: what the people on it record goes into an outbox (the
 * app's local queue, outbox.ts) and is sent in batches whenever the machine is online. A machine
 * that is offline keeps recording and syncs its backlog when it is back. It obeys its licence
 * (licence.ts): a treatment the licence does not allow is not started, and the refusal is logged
 * with its reason. It runs the commands an admin sends (docs/device-api.md §4c;
 * machine-commands.ts), and a safety hold refuses treatments as a licence does.
 */

export type { MachineOptions };

/** The device app's newest release in the demo data (apps/api/src/demo/app-updates-seed.ts), so the console finds it published. */
export const appVersion = { appName: 'com.treatment.device', code: 40, name: '1.3.0' } as const;

/** What the app keeps on its disk besides its credential and outbox: the hold, and the commands it ran. */
export type MachineKeeps = { hold: string | null; commands: [string, CommandOutcome][] };

export class SimMachine {
  readonly client: DeviceClient;
  readonly ledger = newLedger();
  online = true;
  heartbeats = 0;
  /** The longest queue the machine built up while offline. */
  maxBacklog = 0;
  /** Treatments not started because the licence did not allow them. */
  refusedStarts = 0;
  /** Treatments not started because the machine was on safety hold. */
  heldStarts = 0;
  /** A safety hold's reason while it holds (no treatment starts), else null. */
  hold: string | null = null;
  readonly licence: HeldLicence;
  /** The app's settings as applied (heartbeat interval, log level, language, time zone). */
  readonly settings: AppliedSettings;
  /** The release it runs (an update check that installs one changes it: app-update-check.ts). */
  app: { code: number; name: string };
  /** The app's own log, which a diagnostics file carries. */
  readonly appLog: AppLog;
  private readonly machineCommands: MachineCommands;
  private readonly outbox: Outbox;
  private readonly people: People;
  private recorded = 0;
  /** Where the machine stands: its check-ins report this place. */
  readonly place: City;

  constructor(
    readonly label: string,
    private readonly options: MachineOptions,
  ) {
    this.client = new DeviceClient(options.http);
    this.app = options.app ?? appVersion;
    this.place = placeOf(options.random);
    this.licence = new HeldLicence({
      baseUrl: options.http.baseUrl,
      issuer: options.issuer ?? options.http.baseUrl,
      serial: () => this.client.serialNumber!,
      now: this.now,
      fetchToken: () => this.client.licence(),
    });
    this.appLog = new AppLog(this.now);
    this.settings = new AppliedSettings(this.client, (text) => this.appLog.add(text));
    this.outbox = new Outbox({
      client: this.client,
      ledger: this.ledger,
      label,
      random: options.random,
      resendShare: options.resendShare,
      people: () => this.doctors,
    });
    this.people = new People({
      client: this.client,
      ledger: this.ledger,
      label,
      random: options.random,
      badShare: options.badShare,
      now: this.now,
      send: (kind, items, post) => this.outbox.send(kind, items, post),
      log: (text) => this.appLog.add(text),
    });
    this.machineCommands = new MachineCommands(this, {
      // Forked: the draws for failures leave the fake data as it was.
      random: options.random.fork('commands'),
      failShare: options.commandFailShare ?? 0.05,
      enrolmentCode: options.enrolmentCode,
    });
  }

  /** The commands it ran: counts (run, failed) and the ids it remembers. */
  get commands() {
    return this.machineCommands.runner;
  }
  /** Times the app restarted (restart-app). */
  get restarts() {
    return this.machineCommands.restarts;
  }

  /** The machine's clock. */
  readonly now = () => this.options.now?.() ?? new Date();
  /** When the running treatment ends (machine clock, ms); 0: none ran yet. */
  private busyUntil = 0;
  /** A treatment runs now: the heartbeat says so. */
  get busy() {
    return this.now().getTime() < this.busyUntil;
  }

  /** The doctors signed in on it. */
  get doctors() {
    return this.people.list;
  }
  get machineNumber() {
    return this.client.machineNumber!;
  }
  get backlog() {
    return this.outbox.length;
  }

  /** Whether it holds a credential (not while it waits for an enrolment code after re-enrol). */
  get enrolled() {
    return this.client.credential !== null;
  }

  /**
   * Checks in; fetches the licence when the answer names a newer one (or none is held, or it is
   * getting old, or its offline validity setting changed); runs the commands the answer hands over.
   */
  async heartbeat() {
    if (!this.enrolled) return;
    const where = { appName: appVersion.appName, latitude: this.place.lat, longitude: this.place.lon };
    const answer = await this.client.heartbeat(this.app.code, this.app.name, {
      ...where,
      busy: this.busy,
    });
    this.heartbeats++;
    if (this.licence.wants(answer.licenceVersion)) await this.refreshLicence();
    if (this.settings.wants(answer.settingsVersion))
      await this.settings
        .refresh()
        .then((changed) => (changed.includes('licenceOfflineDays') ? this.refreshLicence() : undefined))
        .catch((err: Error) => this.ledger.surprises.push(`${this.label} settings: ${err.message}`));
    await this.machineCommands.take(answer.commands);
  }

  /** Checks for an app update and installs one that is offered (not while it must wait). */
  checkForUpdate() {
    return checkForUpdate(this, appVersion.appName);
  }

  /** Waits for commands with the long-poll for up to `ms`, running each as it comes (between turns). */
  waitForCommands(ms: number) {
    return this.machineCommands.waitFor(ms);
  }

  /** Enrols with a code typed in while it waits for one after a re-enrol (machine-commands.ts). */
  enrolWith(code: string) {
    return this.machineCommands.enrolWith(code);
  }

  /** Its people sign in again (after a restart or a new enrolment). */
  signInAgain() {
    return this.people.signInAgain();
  }

  /** What the app keeps on disk, for a simulator that keeps its machines between starts (the demo fleet). */
  keeps(): MachineKeeps {
    return { hold: this.hold, commands: this.commands.remembered() };
  }

  restore(kept: MachineKeeps) {
    this.hold = kept.hold;
    this.commands.restore(kept.commands);
  }

  /**
   * Fetches and verifies the licence; one that fails verification is not kept, and is logged (and,
   * from a real server, unexpected). A fetch that fails keeps the licence held: the next heartbeat
   * tries again.
   */
  async refreshLicence() {
    let problem: string | null;
    try {
      problem = await this.licence.refresh();
    } catch (err) {
      this.ledger.surprises.push(`${this.label} licence: ${(err as Error).message}`);
      return;
    }
    if (problem === null) return;
    this.ledger.surprises.push(`${this.label} licence: ${problem}`);
    this.logError('app/licence', 'LicenceVerifier.verify', problem, this.now());
  }

  /** An error log queued for the next sync (the app's own log, as the console's Error Logs show it). */
  private logError(resource: string, functionName: string, message: string, at: Date, userId?: number) {
    this.appLog.add(`ERROR ${resource} ${functionName}: ${message}`, at);
    this.outbox.push({
      kind: 'errorLogs',
      item: {
        id: crypto.randomUUID(),
        resource,
        functionName,
        message,
        utcTime: at.toISOString(),
        ...(userId === undefined ? {} : { userId }),
      },
    });
  }

  /**
   * Whether a treatment may start now: not on safety hold, nor when the licence locks the machine or
   * is older than its offline validity. A refusal is counted and logged with its reason.
   */
  mayStartTreatment(at: Date, userId?: number): boolean {
    const held = this.hold;
    const refusal = held === null ? this.licence.refusal() : commandMessages.refusedOnHold(held);
    if (refusal === null) return true;
    if (held === null) this.refusedStarts++;
    else this.heldStarts++;
    this.logError('app/treatment/start', 'TreatmentRunner.start', refusal, at, userId);
    return false;
  }

  /** The technician signs in and registers 1-3 doctors, who then sign in on the machine. */
  setUpPeople(technician: Login, appRoleId: number) {
    return this.people.setUp(technician, appRoleId);
  }

  /** A doctor registered on the machine signs in, with the app ids of patients they may treat again. */
  signIn(userName: string, password: string, patients: string[] = []) {
    return this.people.signIn(userName, password, patients);
  }

  /** The app in a crash loop: `count` error logs at once, queued for the next sync. */
  recordErrorBurst(count: number, at: Date) {
    for (let i = 0; i < count; i++)
      this.outbox.push({ kind: 'errorLogs', item: fakeErrorLog(this.options.random, undefined, at) });
  }

  /** One stretch of use: people on the machine register patients, treat them, the app logs. */
  async record(at: Date) {
    const { random, badShare, newPatientShare = 0.5 } = this.options;
    // A machine nobody can sign in on still writes the app's own logs.
    if (this.doctors.length === 0) {
      if (random.chance(0.3)) this.recordErrorBurst(1, at);
      return;
    }
    const doctor = random.pick(this.doctors);
    const by = doctor.session.user._id;
    const userId = doctor.session.user.userId;
    if (doctor.patients.length === 0 || random.chance(newPatientShare)) {
      const patient = fakePatient(random, this.machineNumber, `${this.label}p${random.int(0, 1e6)}`, at);
      if (random.chance(badShare)) {
        patient.phonenumber = '12-34';
        this.ledger.meantBad.add(patient.id);
      } else doctor.patients.push(patient.id);
      this.outbox.push({ kind: 'patients', by, item: patient });
    }
    if (doctor.patients.length > 0 && this.mayStartTreatment(at, userId)) {
      const item = fakeTreatment(random, random.pick(doctor.patients), this.options.images(), at);
      this.outbox.push({ kind: 'treatments', by, item });
      this.appLog.add(`treatment ${item.id} by ${doctor.session.user.userName}`, at);
      this.busyUntil = at.getTime() + (this.options.treatmentMinutes ?? 1) * 60_000;
    }
    for (let i = random.int(2, 5); i > 0; i--) {
      const item = fakeAccessLog(random, userId, at);
      if (random.chance(badShare)) {
        // A device clock a day ahead: refused ("time is in the future").
        item.time = new Date(at.getTime() + 86_400_000).toISOString();
        this.ledger.meantBad.add(item.id);
      }
      this.outbox.push({ kind: 'accessLogs', item });
    }
    // The app logs its first sync attempt's failure on every machine, then the odd fault.
    if (this.recorded++ === 0 || random.chance(0.3))
      this.outbox.push({ kind: 'errorLogs', item: fakeErrorLog(random, userId, at) });
    if (!this.online) this.maxBacklog = Math.max(this.maxBacklog, this.outbox.length);
  }

  /** Sends the whole outbox; what cannot be sent (a failure after every retry) stays queued. Answers how many. */
  async sync() {
    // Waiting for an enrolment code: nothing can be sent, everything stays queued.
    if (!this.enrolled) return this.outbox.length;
    const queued = this.outbox.length;
    const failed = await this.outbox.sync();
    if (queued > 0) this.appLog.add(`sync: ${queued - failed} sent, ${failed} kept`);
    return failed;
  }
}

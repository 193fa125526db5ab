import type {
  AccessLogItem,
  AppSession,
  BatchResult,
  DoctorItem,
  ErrorLogItem,
  PatientItem,
  TreatmentItem,
} from '@app/contract/device-api';
import type { City } from '@app/fake-data/places';
import type { Rng } from '@app/fake-data/random';
import { DeviceClient } from './device-client.ts';
import { fakeAccessLog, fakeDoctor, fakeErrorLog, fakePatient, fakeTreatment, placeOf } from './fake-data.ts';
import type { HttpOptions } from './http.ts';
import { newLedger, recordAnswers, type RecordKind } from './ledger.ts';
import { HeldLicence } from './licence.ts';

/*
 * One simulated machine running the app: what the people on it record goes into an outbox (the
 * app's local queue) and is sent in batches whenever the machine is online, oldest first, in the
 * order the server needs (patients before their treatments). A machine that is offline keeps
 * recording and syncs its backlog when it is back. It obeys its licence (licence.ts): a treatment
 * the licence does not allow is not started, and the refusal is logged with its reason.
 */

/** The device app's newest release in the demo data (apps/api/src/demo/app-updates-seed.ts), so the console finds it published. */
export const appVersion = { appName: 'com.treatment.device', code: 40, name: '1.3.0' } as const;
const batchSize = 100;

type Entry =
  | { kind: 'patients'; by: string; item: PatientItem }
  | { kind: 'treatments'; by: string; item: TreatmentItem }
  | { kind: 'accessLogs'; item: AccessLogItem }
  | { kind: 'errorLogs'; item: ErrorLogItem };

export type MachineOptions = {
  http: HttpOptions;
  random: Rng;
  /** Share of batches re-sent on purpose with the same ids (as after a lost answer). */
  resendShare: number;
  /** Share of records made bad on purpose (they must be refused with a reason). */
  badShare: number;
  images: () => string[];
  /** The machine's clock (licence checks): tests move it. Default: the real one. */
  now?: () => Date;
  /** The licences' issuer (the server's PUBLIC_URL); default: the address it calls. */
  issuer?: string;
  /** The release it runs (its check-ins say so); default: the newest (appVersion). */
  app?: { code: number; name: string };
  /** Share of stretches of use that register a new patient (else one treated before comes back). */
  newPatientShare?: number;
};

export class SimMachine {
  readonly client: DeviceClient;
  readonly ledger = newLedger();
  readonly doctors: { session: AppSession; patients: string[] }[] = [];
  online = true;
  heartbeats = 0;
  /** The longest queue the machine built up while offline. */
  maxBacklog = 0;
  /** Treatments not started because the licence did not allow them. */
  refusedStarts = 0;
  readonly licence: HeldLicence;
  private recorded = 0;
  private outbox: Entry[] = [];
  /** Where the machine stands: its check-ins report this place. */
  readonly place: City;

  constructor(
    readonly label: string,
    private readonly options: MachineOptions,
  ) {
    this.client = new DeviceClient(options.http);
    this.place = placeOf(options.random);
    this.licence = new HeldLicence({
      baseUrl: options.http.baseUrl,
      issuer: options.issuer ?? options.http.baseUrl,
      serial: () => this.client.serialNumber!,
      now: this.now,
      fetchToken: () => this.client.licence(),
    });
  }

  /** The machine's clock. */
  readonly now = () => this.options.now?.() ?? new Date();

  get machineNumber() {
    return this.client.machineNumber!;
  }
  get backlog() {
    return this.outbox.length;
  }

  /** Checks in; fetches the licence when the answer names a newer one (or none is held, or it is getting old). */
  async heartbeat() {
    const app = this.options.app ?? appVersion;
    const where = { appName: appVersion.appName, latitude: this.place.lat, longitude: this.place.lon };
    const answer = await this.client.heartbeat(app.code, app.name, where);
    this.heartbeats++;
    if (this.licence.wants(answer.licenceVersion)) await this.refreshLicence();
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
   * Whether a treatment may start now: not when the licence locks the machine or is older than its
   * offline validity. A refusal is counted and logged with its reason.
   */
  mayStartTreatment(at: Date, userId?: number): boolean {
    const refusal = this.licence.refusal();
    if (refusal === null) return true;
    this.refusedStarts++;
    this.logError('app/treatment/start', 'TreatmentRunner.start', refusal, at, userId);
    return false;
  }

  /** The technician signs in and registers 1-3 doctors, who then sign in on the machine. */
  async setUpPeople(technician: { userName: string; password: string }, appRoleId: number) {
    const { random } = this.options;
    await this.client.login(technician.userName, technician.password);
    const count = random.int(1, 3);
    const credentials: { userName: string; password: string }[] = [];
    const items: DoctorItem[] = [];
    for (let i = 0; i < count; i++) {
      const password = `Doc-${crypto.randomUUID().slice(0, 12)}`;
      const item = fakeDoctor(
        random,
        this.machineNumber,
        `${this.label}d${i}`,
        appRoleId,
        password,
        this.now(),
      );
      items.push(item);
      credentials.push({ userName: item.username, password });
    }
    // One doctor with a phone number that is not one: refused with the field named, the rest taken.
    if (random.chance(this.options.badShare * 4)) {
      const bad = {
        ...fakeDoctor(random, this.machineNumber, `${this.label}bad`, appRoleId, 'secret-1', this.now()),
      };
      bad.phonenumber = 'call-me';
      this.ledger.meantBad.add(bad.id);
      items.push(bad);
    }
    await this.send('doctors', items, (batch) => this.client.registerDoctors(batch));
    for (const { userName, password } of credentials) {
      const session = await this.client.login(userName, password);
      this.doctors.push({ session, patients: [] });
    }
  }

  /** A doctor registered on the machine signs in, with the app ids of patients they may treat again. */
  async signIn(userName: string, password: string, patients: string[] = []) {
    const session = await this.client.login(userName, password);
    this.doctors.push({ session, patients: [...patients] });
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

  /** Sends the whole outbox; what cannot be sent (a failure after every retry) stays queued. */
  async sync() {
    const queued = this.outbox;
    this.outbox = [];
    const failed: Entry[] = [];
    // Patients before treatments, each under the doctor who recorded them; logs need no person.
    for (const doctor of this.doctors) {
      const by = doctor.session.user._id;
      const mine = <K extends 'patients' | 'treatments'>(kind: K) =>
        queued.filter((e): e is Extract<Entry, { kind: K }> => e.kind === kind && e.by === by);
      const patients = mine('patients');
      const treatments = mine('treatments');
      if (patients.length + treatments.length === 0) continue;
      this.client.use(by);
      failed.push(...(await this.sendEntries('patients', patients, (b) => this.client.registerPatients(b))));
      failed.push(
        ...(await this.sendEntries('treatments', treatments, (b) => this.client.sendTreatments(b))),
      );
    }
    const logs = <K extends 'accessLogs' | 'errorLogs'>(kind: K) =>
      queued.filter((e): e is Extract<Entry, { kind: K }> => e.kind === kind);
    failed.push(
      ...(await this.sendEntries('accessLogs', logs('accessLogs'), (b) => this.client.sendAccessLogs(b))),
    );
    failed.push(
      ...(await this.sendEntries('errorLogs', logs('errorLogs'), (b) => this.client.sendErrorLogs(b))),
    );
    this.outbox.unshift(...failed);
    return failed.length;
  }

  private async sendEntries<E extends Entry>(
    kind: RecordKind,
    entries: E[],
    post: (items: E['item'][]) => Promise<BatchResult>,
  ): Promise<E[]> {
    const failed: E[] = [];
    for (let i = 0; i < entries.length; i += batchSize) {
      const chunk = entries.slice(i, i + batchSize);
      try {
        await this.send(kind, chunk.map((e) => e.item) as E['item'][], post);
      } catch (err) {
        this.ledger.surprises.push(`${this.label} ${kind}: ${(err as Error).message}`);
        failed.push(...chunk);
      }
    }
    return failed;
  }

  /** One batch; sometimes sent again with the same ids, as an app does when the answer was lost. */
  private async send<T extends { id: string }>(
    kind: RecordKind,
    items: T[],
    post: (items: T[]) => Promise<BatchResult>,
  ) {
    if (items.length === 0) return;
    const ids = items.map((item) => item.id);
    recordAnswers(this.ledger, kind, ids, await post(items), this.label);
    if (this.options.random.chance(this.options.resendShare))
      recordAnswers(this.ledger, kind, ids, await post(items), this.label, true);
  }
}

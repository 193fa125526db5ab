import type {
  AccessLogItem,
  AppSession,
  BatchResult,
  ErrorLogItem,
  PatientItem,
  TreatmentItem,
} from '@app/contract/device-api';
import type { Rng } from '@app/fake-data/random';
import type { DeviceClient } from './device-client.ts';
import { recordAnswers, type Ledger, type RecordKind } from './ledger.ts';

/*
 * The app's local queue: what the people on the machine record waits here and is sent in batches
 * whenever the machine is online, oldest first, in the order the server needs (patients before
 * their treatments, each under the person who recorded them). What cannot be sent stays queued.
 */

const batchSize = 100;

export type Entry =
  | { kind: 'patients'; by: string; item: PatientItem }
  | { kind: 'treatments'; by: string; item: TreatmentItem }
  | { kind: 'accessLogs'; item: AccessLogItem }
  | { kind: 'errorLogs'; item: ErrorLogItem };

export type OutboxOptions = {
  client: DeviceClient;
  ledger: Ledger;
  label: string;
  random: Rng;
  /** Share of batches re-sent on purpose with the same ids (as after a lost answer). */
  resendShare: number;
  /** The people signed in on the machine. */
  people: () => readonly { session: AppSession }[];
};

export class Outbox {
  private entries: Entry[] = [];

  constructor(private readonly options: OutboxOptions) {}

  get length() {
    return this.entries.length;
  }

  push(entry: Entry) {
    this.entries.push(entry);
  }

  /** Sends the whole queue; what cannot be sent (a failure after every retry) stays queued. Answers how many. */
  async sync() {
    const { client } = this.options;
    const queued = this.entries;
    this.entries = [];
    const failed: Entry[] = [];
    // Patients before treatments, each under the doctor who recorded them; logs need no person.
    for (const person of this.options.people()) {
      const by = person.session.user._id;
      const mine = <K extends 'patients' | 'treatments'>(kind: K) =>
        queued.filter((e): e is Extract<Entry, { kind: K }> => e.kind === kind && e.by === by);
      const patients = mine('patients');
      const treatments = mine('treatments');
      if (patients.length + treatments.length === 0) continue;
      client.use(by);
      failed.push(...(await this.sendEntries('patients', patients, (b) => client.registerPatients(b))));
      failed.push(...(await this.sendEntries('treatments', treatments, (b) => client.sendTreatments(b))));
    }
    const logs = <K extends 'accessLogs' | 'errorLogs'>(kind: K) =>
      queued.filter((e): e is Extract<Entry, { kind: K }> => e.kind === kind);
    failed.push(
      ...(await this.sendEntries('accessLogs', logs('accessLogs'), (b) => client.sendAccessLogs(b))),
    );
    failed.push(...(await this.sendEntries('errorLogs', logs('errorLogs'), (b) => client.sendErrorLogs(b))));
    this.entries.unshift(...failed);
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
        this.options.ledger.surprises.push(`${this.options.label} ${kind}: ${(err as Error).message}`);
        failed.push(...chunk);
      }
    }
    return failed;
  }

  /** One batch; sometimes sent again with the same ids, as an app does when the answer was lost. */
  async send<T extends { id: string }>(
    kind: RecordKind,
    items: T[],
    post: (items: T[]) => Promise<BatchResult>,
  ) {
    if (items.length === 0) return;
    const { ledger, label, random, resendShare } = this.options;
    const ids = items.map((item) => item.id);
    recordAnswers(ledger, kind, ids, await post(items), label);
    if (random.chance(resendShare)) recordAnswers(ledger, kind, ids, await post(items), label, true);
  }
}

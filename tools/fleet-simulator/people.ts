import type { AppSession, BatchResult, DoctorItem } from '@app/contract/device-api';
import type { Rng } from '@app/fake-data/random';
import type { DeviceClient } from './device-client.ts';
import { fakeDoctor } from './fake-data.ts';
import type { Ledger, RecordKind } from './ledger.ts';

/*
 * The people on a simulated machine: the technician registers the doctors, who sign in and treat.
 * The app remembers how each signs in, so after a restart or a new enrolment (which ends every
 * session on the server) they sign in again.
 */

export type Login = { userName: string; password: string };
export type Person = { session: AppSession; patients: string[]; login: Login };

export type PeopleOptions = {
  client: DeviceClient;
  ledger: Ledger;
  label: string;
  random: Rng;
  /** Share of records made bad on purpose (here a doctor whose phone number is not one). */
  badShare: number;
  now: () => Date;
  /** A batch of doctors, as the outbox sends batches (outbox.ts). */
  send: (
    kind: RecordKind,
    items: DoctorItem[],
    post: (items: DoctorItem[]) => Promise<BatchResult>,
  ) => Promise<void>;
  log: (text: string) => void;
};

export class People {
  /** The doctors signed in on the machine. */
  readonly list: Person[] = [];

  constructor(private readonly options: PeopleOptions) {}

  /** The technician signs in and registers 1-3 doctors, who then sign in on the machine. */
  async setUp(technician: Login, appRoleId: number) {
    const { client, random, label, now } = this.options;
    const machineNumber = client.machineNumber!;
    await client.login(technician.userName, technician.password);
    const count = random.int(1, 3);
    const logins: Login[] = [];
    const items: DoctorItem[] = [];
    for (let i = 0; i < count; i++) {
      const password = `Doc-${crypto.randomUUID().slice(0, 12)}`;
      const item = fakeDoctor(random, machineNumber, `${label}d${i}`, appRoleId, password, now());
      items.push(item);
      logins.push({ userName: item.username, password });
    }
    // One doctor with a phone number that is not one: refused with the field named, the rest taken.
    if (random.chance(this.options.badShare * 4)) {
      const bad = { ...fakeDoctor(random, machineNumber, `${label}bad`, appRoleId, 'secret-1', now()) };
      bad.phonenumber = 'call-me';
      this.options.ledger.meantBad.add(bad.id);
      items.push(bad);
    }
    await this.options.send('doctors', items, (batch) => client.registerDoctors(batch));
    for (const login of logins) await this.signIn(login.userName, login.password);
    this.options.log(`technician ${technician.userName} registered ${logins.length} doctors`);
  }

  /** A doctor registered on the machine signs in, with the app ids of patients they may treat again. */
  async signIn(userName: string, password: string, patients: string[] = []) {
    const session = await this.options.client.login(userName, password);
    this.list.push({ session, patients: [...patients], login: { userName, password } });
  }

  /** Every person signs in again with their password; one who cannot (since deactivated) is a surprise. */
  async signInAgain() {
    const { client, ledger, label } = this.options;
    const people = this.list.splice(0);
    client.forgetSessions();
    for (const person of people) {
      try {
        const session = await client.login(person.login.userName, person.login.password);
        this.list.push({ ...person, session });
      } catch (err) {
        ledger.surprises.push(`${label} sign-in of ${person.login.userName}: ${(err as Error).message}`);
      }
    }
    this.options.log(`${this.list.length} people signed in again`);
  }
}

import type { Rng } from '@app/fake-data/random';
import type { HttpOptions } from './http.ts';

/** How one simulated machine behaves (machine.ts): its share of mistakes, its clock, its release. */
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
  /**
   * How long a treatment keeps the machine busy, on its clock (default 1 minute): its heartbeats say
   * busy meanwhile, so the server holds a restart or a re-enrol until it ends.
   */
  treatmentMinutes?: number;
  /** Share of non-disruptive commands that fail ("storage busy, try again"); default 0.05. */
  commandFailShare?: number;
  /**
   * A new enrolment code for this machine, as a technician gets one from the console (re-enrol).
   * Without it, a machine told to re-enrol drops its credential and waits for a code (enrolWith).
   */
  enrolmentCode?: (deviceId: string) => Promise<string>;
};

import type { Storage } from '../lib/storage/storage.ts';
import type { DemoDevice } from './devices-seed.ts';

/** What every domain's demo seed receives besides the database and its own generator. */
export type DemoContext = {
  /** Dates are laid out up to this moment. */
  now: Date;
  /** The demo devices (their serial numbers tie subscriptions to them). */
  devices: DemoDevice[];
  storage?: Storage;
};

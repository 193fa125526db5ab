import { catalogueDefaults, type AppSettings, type MachineSettings } from '@app/contract/machine-settings';

/**
 * The settings the app applied (docs/device-api.md, "Settings"), as the app keeps them: the heartbeat
 * names the version now; above the one applied, the app fetches the settings, applies them and
 * reports the version. A fetch or report that fails is tried again on the next heartbeat.
 */
export class AppliedSettings {
  /** The version applied; -1 until the first fetch (version 0 is the defaults, never reported). */
  version = -1;
  values: MachineSettings = { ...catalogueDefaults };
  /** Settings versions applied, in order (the simulator's tests read them). */
  readonly history: number[] = [];

  constructor(
    private readonly client: {
      settings(): Promise<AppSettings>;
      settingsApplied(version: number): Promise<unknown>;
    },
    private readonly log: (text: string) => void,
  ) {}

  /** Whether the heartbeat's `settingsVersion` is newer than what the app applied. */
  wants(version: number) {
    return version > this.version;
  }

  /**
   * Fetches, applies and reports; a version 0 (no admin ever set one) is applied without a report.
   * Answers the keys that changed since the settings applied before (none at the first fetch): a new
   * licenceOfflineDays is the server's, which the app takes by fetching its licence again.
   */
  async refresh(): Promise<(keyof MachineSettings)[]> {
    const { version, settings } = await this.client.settings();
    if (version <= this.version) return [];
    const changed = (Object.keys(settings) as (keyof MachineSettings)[]).filter(
      (key) => settings[key] !== this.values[key],
    );
    this.values = settings;
    if (changed.length)
      this.log(`Settings ${version} applied: ${changed.map((k) => `${k}=${settings[k]}`).join(', ')}`);
    if (version > 0) await this.client.settingsApplied(version);
    const first = this.version < 0;
    this.version = version;
    this.history.push(version);
    return first ? [] : changed;
  }
}

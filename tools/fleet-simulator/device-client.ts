import {
  deviceApiMessages,
  type AccessLogItem,
  type AppSession,
  type BatchResult,
  type DoctorItem,
  type EnrolResult,
  type ErrorLogItem,
  type HeartbeatResult,
  type PatientItem,
  type TreatmentItem,
} from '@app/contract/device-api';
import type { LatestUpdate } from '@app/contract/app-updates';
import {
  commandPaths,
  type AppCommand,
  type CommandResultBody,
  type CommandState,
} from '@app/contract/commands';
import { licencePaths } from '@app/contract/licences';
import { settingsPaths, type AppSettings } from '@app/contract/machine-settings';
import { apiPaths } from '@app/contract/paths';
import { ApiError, createHttp, type HttpOptions } from './http.ts';

/*
 * One treatment machine's app, as a client of the device API (docs/device-api.md): the credential
 * it got at enrolment, the people signed in on it, and every call the app makes. The simulator, the
 * API tests and the e2e test all drive the device API through this class.
 */

type Held = { session: AppSession; accessUntil: number };
export type ListPage<T> = { data: T[]; total: number; page: number; limit: number };

export class DeviceClient {
  readonly http: ReturnType<typeof createHttp>;
  credential: string | null;
  deviceId: string | null = null;
  machineNumber: string | null = null;
  serialNumber: string | null = null;
  private readonly sessions = new Map<string, Held>();
  private current: string | null = null;

  constructor(options: HttpOptions & { credential?: string }) {
    this.http = createHttp(options);
    this.credential = options.credential ?? null;
  }

  /** Exchanges the code typed from Device Details for the machine's credential (kept for every later call). */
  async enrol(code: string): Promise<EnrolResult> {
    const result = await this.http.call<EnrolResult>({
      method: 'POST',
      path: apiPaths.appEnrol,
      body: { code },
    });
    this.credential = result.credential;
    this.deviceId = result.deviceId;
    this.machineNumber = result.machineNumber;
    this.serialNumber = result.serialNumber;
    return result;
  }

  /**
   * Checks in with the app's version (and its app name, the one its update checks use, and where it
   * is); the answer names the licence version to hold (fetch the licence when it is newer).
   */
  heartbeat(
    versionCode: number,
    versionName: string,
    more: { appName?: string; latitude?: number; longitude?: number; busy?: boolean } = {},
  ) {
    return this.asMachine<HeartbeatResult>({
      method: 'POST',
      path: apiPaths.appHeartbeat,
      body: { versionCode, versionName, ...more },
    });
  }

  /** This machine's signed licence (verify it before obeying it: licence.ts). */
  licence() {
    return this.asMachine<{ token: string; version: number; expiresAt: string }>({
      method: 'GET',
      path: licencePaths.appLicence,
    });
  }

  /** This machine's effective settings and their version (apply, then report: app-settings.ts). */
  settings() {
    return this.asMachine<AppSettings>({ method: 'GET', path: settingsPaths.app });
  }

  settingsApplied(version: number) {
    return this.asMachine({ method: 'POST', path: settingsPaths.appApplied, body: { version } });
  }

  /**
   * The update check as this enrolled machine: its credential makes the answer follow its rollout
   * cohort (decision 051).
   */
  checkForUpdate(appName: string, versionCode: number) {
    return this.asMachine<LatestUpdate>({
      method: 'GET',
      path: apiPaths.appUpdateLatest,
      query: { appName, versionCode },
    });
  }

  // ---------- commands (docs/device-api.md §4c) ----------

  /**
   * The pending commands, waiting up to `waitSeconds` for one (0: answer at once). The call's own
   * timeout is the wait and some, so a long wait is not cut short and retried.
   */
  async pollCommands(waitSeconds = 0): Promise<AppCommand[]> {
    const answer = await this.asMachine<{ commands: AppCommand[] }>({
      method: 'GET',
      path: commandPaths.appCommands,
      query: { wait: waitSeconds },
      timeoutMs: (waitSeconds + 15) * 1000,
    });
    return answer.commands;
  }

  /** A command's result; a repeated report answers the state the first one set. */
  reportCommand(id: string, result: CommandResultBody) {
    return this.asMachine<{ state: CommandState }>({
      method: 'POST',
      path: commandPaths.appResult(id),
      body: result,
    });
  }

  /** The file an upload-diagnostics command asked for, as the body itself. */
  uploadDiagnostics(id: string, bytes: Uint8Array<ArrayBuffer>, contentType = 'application/gzip') {
    return this.asMachine<{ size: number }>({
      method: 'PUT',
      path: commandPaths.appDiagnostics(id),
      raw: { bytes, contentType },
    });
  }

  /** Forgets the credential and every session on the machine (re-enrol: a new code is needed). */
  forgetEnrolment() {
    this.credential = null;
    this.forgetSessions();
  }

  /** Forgets the people signed in (an app restart; a new enrolment ends their sessions on the server). */
  forgetSessions() {
    this.sessions.clear();
    this.current = null;
  }

  /** Signs a doctor or technician in; the session becomes the current one. */
  async login(username: string, password: string): Promise<AppSession> {
    const session = await this.asMachine<AppSession>({
      method: 'POST',
      path: apiPaths.appLogin,
      body: { username, password },
    });
    this.hold(session);
    this.current = session.user._id;
    return session;
  }

  /** Switches the person acting on the machine to one already signed in (by their record id). */
  use(userRecordId: string) {
    if (!this.sessions.has(userRecordId)) throw new Error(`no session for ${userRecordId} on this machine`);
    this.current = userRecordId;
  }

  get session(): AppSession | null {
    return this.current ? (this.sessions.get(this.current)?.session ?? null) : null;
  }

  /** Trades the current session's refresh token for a new pair (a used refresh token is dead). */
  async refresh(): Promise<AppSession> {
    const held = this.currentHeld();
    const session = await this.asMachine<AppSession>({
      method: 'POST',
      path: apiPaths.appTokenRefresh,
      body: { refreshToken: held.session.refreshToken },
    });
    this.hold(session);
    return session;
  }

  async logout(): Promise<void> {
    const held = this.currentHeld();
    await this.http.call({ method: 'POST', path: apiPaths.appLogout, headers: this.personHeaders(held) });
    this.sessions.delete(held.session.user._id);
    this.current = null;
  }

  me() {
    return this.asPerson<{ user: AppSession['user']; device: EnrolResult }>({
      method: 'GET',
      path: apiPaths.appMe,
    });
  }

  // ---------- batches (each item keeps its id across every retry) ----------

  registerDoctors(items: DoctorItem[]) {
    return this.asPerson<BatchResult>({ method: 'POST', path: apiPaths.appDoctors, body: { items } });
  }
  registerPatients(items: PatientItem[]) {
    return this.asPerson<BatchResult>({ method: 'POST', path: apiPaths.appPatients, body: { items } });
  }
  sendTreatments(items: TreatmentItem[]) {
    return this.asPerson<BatchResult>({ method: 'POST', path: apiPaths.appTreatments, body: { items } });
  }
  sendAccessLogs(items: AccessLogItem[]) {
    return this.asMachine<BatchResult>({ method: 'POST', path: apiPaths.appAccessLogs, body: { items } });
  }
  sendErrorLogs(items: ErrorLogItem[]) {
    return this.asMachine<BatchResult>({ method: 'POST', path: apiPaths.appErrorLogs, body: { items } });
  }

  // ---------- reads (this machine's, as the signed-in person sees them) ----------

  listDoctors(page = 1, limit = 50) {
    return this.asPerson<
      ListPage<{ _id: string; clientId: string | null; userId: number; userName: string }>
    >({
      method: 'GET',
      path: apiPaths.appDoctors,
      query: { page, limit },
    });
  }
  listPatients(page = 1, limit = 50) {
    return this.asPerson<ListPage<{ _id: string; clientId: string | null; patientname: string }>>({
      method: 'GET',
      path: apiPaths.appPatients,
      query: { page, limit },
    });
  }
  listTreatments(page = 1, limit = 50) {
    return this.asPerson<ListPage<{ _id: string; clientId: string | null; imageCount: number }>>({
      method: 'GET',
      path: apiPaths.appTreatments,
      query: { page, limit },
    });
  }

  // ---------- plumbing ----------

  private deviceHeaders(): Record<string, string> {
    if (!this.credential) throw new Error('this machine is not enrolled');
    return { authorization: `Device ${this.credential}` };
  }

  private personHeaders(held: Held): Record<string, string> {
    return { ...this.deviceHeaders(), 'x-app-session': held.session.accessToken };
  }

  private hold(session: AppSession) {
    // A few seconds early: the clocks of the machine and the server differ.
    const accessUntil = Date.now() + session.accessExpiresIn * 1000 - 5_000;
    this.sessions.set(session.user._id, { session, accessUntil });
  }

  private currentHeld(): Held {
    const held = this.current ? this.sessions.get(this.current) : undefined;
    if (!held) throw new Error('nobody is signed in on this machine');
    return held;
  }

  /** A call as the machine alone (its credential, nobody signed in). */
  private asMachine<T>(options: Omit<Parameters<typeof this.http.call>[0], 'headers'>): Promise<T> {
    return this.http.call<T>({ ...options, headers: this.deviceHeaders() });
  }

  /** A call as the current person: refreshes first when the access token has lapsed, and once on a 401 for it. */
  private async asPerson<T>(options: Omit<Parameters<typeof this.http.call>[0], 'headers'>): Promise<T> {
    if (Date.now() >= this.currentHeld().accessUntil) await this.refresh();
    try {
      return await this.http.call<T>({ ...options, headers: this.personHeaders(this.currentHeld()) });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401 || err.msg !== deviceApiMessages.sessionInvalid)
        throw err;
      await this.refresh();
      return this.http.call<T>({ ...options, headers: this.personHeaders(this.currentHeld()) });
    }
  }
}

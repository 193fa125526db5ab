import type { EnrolmentCode, EnrolmentStatus } from '@app/contract/device-enrolment';
import type { Device, DeviceCreateBody } from '@app/contract/devices';
import type { DoctorList, PatientList, TechnicianList } from '@app/contract/device-users';
import type { AccessLogList, ErrorLogList } from '@app/contract/logs';
import { apiPaths } from '@app/contract/paths';
import type { Role } from '@app/contract/roles';
import type { TreatmentDetail, TreatmentList } from '@app/contract/treatments';
import type { User, UserCreateBodyInput } from '@app/contract/users';
import { ApiError, createHttp, type CallOptions, type HttpOptions } from './http.ts';

/*
 * The console's side, as the simulator needs it: provision machines and technicians the way an
 * admin does in the console, and read back what the fleet sent through the console's own lists.
 */

/** Rows the server writes about a machine (its enrolment and sign-ins, as `POST /api/v1/...`) rather than rows its app sent. */
const serverWritten = /^[A-Z]+ \//;

export class AdminClient {
  readonly http: ReturnType<typeof createHttp>;
  private token: string | null = null;

  constructor(
    options: HttpOptions,
    private readonly email: string,
    private readonly password: string,
  ) {
    this.http = createHttp(options);
  }

  async signIn(): Promise<void> {
    const data = await this.http.call<{ accessToken?: string }>({
      method: 'POST',
      path: apiPaths.login,
      body: { email: this.email, password: this.password },
    });
    if (!data?.accessToken)
      throw new Error(
        `signing in as ${this.email} did not give a session (is two-step sign-in on for this admin?)`,
      );
    this.token = data.accessToken;
  }

  /** A call as the admin; signs in again once when the console session has lapsed. */
  private async call<T>(options: CallOptions): Promise<T> {
    if (!this.token) await this.signIn();
    const withToken = () =>
      this.http.call<T>({
        ...options,
        headers: { ...options.headers, authorization: `Bearer ${this.token}` },
      });
    try {
      return await withToken();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      await this.signIn();
      return withToken();
    }
  }

  addDevice(form: DeviceCreateBody) {
    return this.call<Device>({ method: 'POST', path: apiPaths.machineAdd, body: form });
  }
  getDevice(id: string) {
    return this.call<Device>({ method: 'GET', path: apiPaths.machine(id) });
  }
  issueEnrolmentCode(deviceId: string) {
    return this.call<EnrolmentCode>({ method: 'POST', path: apiPaths.machineEnrolmentCode(deviceId) });
  }
  enrolmentStatus(deviceId: string) {
    return this.call<EnrolmentStatus>({ method: 'GET', path: apiPaths.machineEnrolment(deviceId) });
  }
  /** Revoking is a dangerous action: the admin's password is confirmed first (step-up, decision 046). */
  async revokeEnrolment(deviceId: string) {
    await this.call<unknown>({
      method: 'POST',
      path: apiPaths.profileStepUp,
      body: { password: this.password },
    });
    return this.call<unknown>({ method: 'POST', path: apiPaths.machineEnrolmentRevoke(deviceId) });
  }
  createAppRole(roleName: string) {
    return this.call<Role>({ method: 'POST', path: apiPaths.roles, body: { roleName, type: 'app' } });
  }
  createUser(body: UserCreateBodyInput) {
    return this.call<User>({ method: 'POST', path: apiPaths.users, body });
  }
  assignMachines(userId: string, deviceIds: string[]) {
    return this.call<unknown>({ method: 'PUT', path: apiPaths.userMachines(userId), body: { deviceIds } });
  }
  /**
   * A technician as the console makes one: a user of the app role `roleId` (from createAppRole),
   * assigned to the machines, so it can then sign in on them with `login`. `details` overrides the
   * name, email and phone, which nothing checks.
   */
  async addTechnician(
    roleId: string,
    deviceIds: string[],
    login: { userName: string; password: string },
    details: Partial<Pick<UserCreateBodyInput, 'firstName' | 'lastName' | 'email' | 'phone'>> = {},
  ) {
    const user = await this.createUser({
      firstName: 'Tess',
      lastName: 'Technician',
      email: `${login.userName}@example.com`,
      phone: '0612345678',
      ...details,
      roleId,
      userName: login.userName,
      password: login.password,
    });
    await this.assignMachines(user._id, deviceIds);
    return user;
  }

  doctors(machineNumber: string, page = 1, limit = 100) {
    return this.machineList<DoctorList>(apiPaths.doctorsAll, machineNumber, page, limit);
  }
  patients(machineNumber: string, page = 1, limit = 100) {
    return this.machineList<PatientList>(apiPaths.patientsAll, machineNumber, page, limit);
  }
  technicians(machineNumber: string, page = 1, limit = 100) {
    return this.machineList<TechnicianList>(apiPaths.techniciansAll, machineNumber, page, limit);
  }
  treatments(machineNumber: string, page = 1, limit = 100) {
    return this.machineList<TreatmentList>(apiPaths.treatmentsAll, machineNumber, page, limit);
  }
  /** One page of a console list filtered to the machine. */
  private machineList<L>(path: string, machineNumber: string, page: number, limit: number) {
    return this.call<L>({ method: 'GET', path, query: { machineNumber, page, limit } });
  }
  treatment(id: string) {
    return this.call<TreatmentDetail>({ method: 'GET', path: apiPaths.treatment(id) });
  }

  /** Every log row the machine's app sent (the server's own rows about requests left out), read page by page. */
  appAccessLogs(machineNumber: string) {
    return this.appLogs<AccessLogList>(apiPaths.accessLogsAll, machineNumber);
  }
  appErrorLogs(machineNumber: string) {
    return this.appLogs<ErrorLogList>(apiPaths.errorLogsAll, machineNumber);
  }
  private async appLogs<L extends AccessLogList | ErrorLogList>(path: string, machineNumber: string) {
    const rows: L['logs'][number][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.call<L>({ method: 'GET', path, query: { machineNumber, limit: 100, after } });
      for (const row of page.logs) if (!serverWritten.test(row.resource)) rows.push(row);
      if (!page.nextCursor || page.logs.length === 0) return rows;
      after = page.nextCursor;
    }
  }

  /** How many rows of each kind the console holds for the machine. */
  async holdings(machineNumber: string) {
    const [doctors, patients, technicians, treatments, accessLogs, errorLogs] = await Promise.all([
      this.doctors(machineNumber, 1, 1),
      this.patients(machineNumber, 1, 1),
      this.technicians(machineNumber, 1, 1),
      this.treatments(machineNumber, 1, 1),
      this.appAccessLogs(machineNumber),
      this.appErrorLogs(machineNumber),
    ]);
    return {
      doctors: doctors.total,
      patients: patients.total,
      technicians: technicians.total,
      treatments: treatments.total,
      accessLogs: accessLogs.length,
      errorLogs: errorLogs.length,
    };
  }
}
export type Holdings = Awaited<ReturnType<AdminClient['holdings']>>;

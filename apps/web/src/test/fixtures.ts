import type { AdminProfile } from '@app/contract/auth';
import type { Customer } from '@app/contract/customers';
import type { Doctor, Patient, Technician } from '@app/contract/device-users';
import type { Device } from '@app/contract/devices';
import type { AccessLog, ErrorLog } from '@app/contract/logs';
import type { Role } from '@app/contract/roles';
import type { Treatment } from '@app/contract/treatments';
import type { User } from '@app/contract/users';
import type { Answer } from './http-server.ts';

/**
 * Builders of API records for component tests: record `n` has readable, distinct values
 * (MN-3, Doctor 3, ...); `over` changes only what a test is about.
 */

/** A stable UUID per kind and number, so URLs in assertions can be written out. */
export const testId = (n: number, kind = 8) => `00000000-0000-4000-${kind}000-${String(n).padStart(12, '0')}`;

const created = '2025-01-01T09:00:00.000Z';

/** The API's envelope (docs/product.md §7.1) around `data`. */
export const ok = (data: unknown, msg = 'Success', status = 200): Answer => ({
  status,
  body: { code: status, msg, data },
});

export const failure = (status: number, msg: string): Answer => ({
  status,
  body: { code: status, msg, data: null },
});

/** The server's pagination fields for page `page` of `rows` (the rows themselves are the caller's slice). */
export function pageOf<T>(rows: T[], { page = 1, limit = 10 }: { page?: number; limit?: number } = {}) {
  return {
    rows: rows.slice((page - 1) * limit, page * limit),
    totalPages: Math.max(1, Math.ceil(rows.length / limit)),
    total: rows.length,
    page,
    limit,
  };
}

export const buildDevice = (n: number, over: Partial<Device> = {}): Device => ({
  _id: testId(n),
  machineNumber: `MN-${n}`,
  serialNumber: `SN-${n}`,
  location: `Clinic ${n}`,
  latitude: 1,
  longitude: 2,
  city: 'Berlin',
  country: 'Germany',
  address: 'Street 1',
  status: 2,
  subscriptionStatus: null,
  subscriptionDetails: [],
  createdAt: created,
  updatedAt: created,
  lastSeenAt: null,
  online: false,
  appVersionCode: null,
  appVersionName: null,
  appPackage: null,
  licenceState: 'unlicensed',
  licencePaidThrough: null,
  licenceGraceUntil: null,
  ...over,
});

export const buildDoctor = (n: number, over: Partial<Doctor> = {}): Doctor => ({
  _id: testId(n, 1),
  userId: 100 + n,
  userName: `Doctor ${n}`,
  email: `doctor${n}@example.com`,
  phonenumber: `555000${String(n).padStart(4, '0')}`,
  address: `${n} Harbour Road`,
  status: 2,
  createTime: created,
  machineNumber: 'MN-1',
  ...over,
});

export const buildTechnician = (n: number, over: Partial<Technician> = {}): Technician => ({
  _id: testId(n, 2),
  userId: 200 + n,
  userName: `Technician ${n}`,
  email: `technician${n}@example.com`,
  phonenumber: `555100${String(n).padStart(4, '0')}`,
  status: 2,
  createTime: created,
  machineNumber: 'MN-1',
  ...over,
});

export const buildPatient = (n: number, over: Partial<Patient> = {}): Patient => ({
  _id: testId(n, 3),
  userId: 300 + n,
  patientname: `Patient ${n}`,
  email: `patient${n}@example.com`,
  phone: `555200${String(n).padStart(4, '0')}`,
  createTime: created,
  doctorid: testId(1, 1),
  doctorName: 'Doctor 1',
  machineNumber: 'MN-1',
  ...over,
});

export const buildTreatment = (n: number, over: Partial<Treatment> = {}): Treatment => ({
  _id: testId(n, 4),
  userName: `Patient ${n}`,
  treatmentDevice: 'ESWT Pro 2',
  treatmentPlan: `Plan ${n}`,
  treatmentStartTime: created,
  treatmentEndTime: created,
  treatmentDuration: 20,
  treatmentEnergy: 1.5,
  totalEnergyOutput: 1500,
  machineNumber: 'MN-1',
  doctorId: testId(1, 1),
  doctorName: 'Doctor 1',
  patientId: testId(n, 3),
  createdAt: created,
  ...over,
});

/** The signed-in admin as the sign-in answer gives it; `permissions` are their role's. */
export const buildAdminProfile = (permissions: string[], over: Partial<AdminProfile> = {}): AdminProfile => ({
  _id: 'a1',
  userName: 'admin',
  firstName: 'Ada',
  lastName: null,
  email: 'admin@example.com',
  phone: null,
  profileImage: null,
  role: { _id: 'r1', roleName: 'Admin', type: 'admin', permissions },
  isDeletable: false,
  ...over,
});

export const buildRole = (n: number, over: Partial<Role> = {}): Role => ({
  _id: testId(n, 5),
  roleId: n,
  roleName: `Role ${n}`,
  type: 'admin',
  createTime: created,
  permissions: [],
  ...over,
});

export const buildUser = (n: number, over: Partial<User> = {}): User => ({
  _id: testId(n, 6),
  firstName: `First${n}`,
  lastName: `Last${n}`,
  userName: `user${n}`,
  email: `user${n}@example.com`,
  phone: `555300${String(n).padStart(4, '0')}`,
  phonenumber: `555300${String(n).padStart(4, '0')}`,
  roleId: testId(1, 5),
  role: { _id: testId(1, 5), roleName: 'Role 1', type: 'admin' },
  isDeletable: true,
  createdAt: created,
  ...over,
});

export const buildAccessLog = (n: number, over: Partial<AccessLog> = {}): AccessLog => ({
  _id: `access-${n}`,
  resource: `GET /api/v1/admin/machine/${n}`,
  location: '10.0.0.1',
  time: created,
  createdTime: created,
  userEmail: `user${n}@example.com`,
  user: { userId: `u${n}`, email: `user${n}@example.com` },
  machineNumber: 'MN-1',
  statusCode: 200,
  recordKind: null,
  recordId: null,
  changedFields: null,
  ...over,
});

export const buildErrorLog = (n: number, over: Partial<ErrorLog> = {}): ErrorLog => ({
  _id: `error-${n}`,
  resource: `POST /api/v1/admin/machine/${n}`,
  functionName: `handler${n}`,
  utcTime: created,
  createdTime: created,
  userEmail: `user${n}@example.com`,
  user: { userId: `u${n}`, email: `user${n}@example.com` },
  machineNumber: 'MN-1',
  statusCode: 500,
  message: `Failure ${n}`,
  location: '10.0.0.1',
  ...over,
});

/** A log list answer as both log endpoints send it (cursor paging, docs/product.md §2.9). */
export const logListOf = (logs: unknown[], nextCursor: string | null = null) => ({
  logs,
  total_pages: logs.length ? 1 : 0,
  total: logs.length,
  totalIsEstimate: false,
  page: 1,
  limit: 10,
  nextCursor,
});

/** A customer (clinic), issue 39: Clinic n, in Germany when n is odd, else France. */
export const buildCustomer = (n: number, over: Partial<Customer> = {}): Customer => ({
  _id: testId(n, 9),
  name: `Clinic ${n}`,
  country: n % 2 ? 'Germany' : 'France',
  address: `${n} Harbour Road`,
  billingEmail: `billing${n}@clinic.example`,
  taxId: `DE${n}`,
  notes: '',
  requireMfa: false,
  machineCount: n,
  createdAt: '2030-01-02T10:00:00.000Z',
  updatedAt: '2030-01-02T10:00:00.000Z',
  ...over,
});

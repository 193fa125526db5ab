import type { Rng } from './random.ts';

/*
 * What the machines' access and error logs hold. A machine's rows name either the device API route
 * it called (`POST /api/v1/app/heartbeat`, as the server records a call) or the app's own screen
 * (`app/treatment/start`, as the app sends its logs, docs/device-api.md). The demo data set shows
 * the first kind; the fleet simulator sends the second, which is how it tells the app's rows from
 * the server's when it counts them.
 */

/**
 * The device API routes a machine's app calls, weighted by how often it calls them (heartbeats every
 * few minutes, record syncs after sessions).
 */
export const appRoutes = [
  'POST /api/v1/app/heartbeat',
  'POST /api/v1/app/heartbeat',
  'POST /api/v1/app/heartbeat',
  'POST /api/v1/app/login',
  'POST /api/v1/app/token/refresh',
  'GET /api/v1/app/me',
  'GET /api/v1/app/patients',
  'POST /api/v1/app/patients',
  'GET /api/v1/app/treatments',
  'POST /api/v1/app/treatments',
  'POST /api/v1/app/treatments',
  'GET /api/v1/app/updates/latest',
  'POST /api/v1/app/logout',
];
/** Technicians also register doctors. */
export const technicianRoutes = ['POST /api/v1/app/doctors', 'GET /api/v1/app/doctors'];

/** The app's screens, as it names them in the logs it sends. */
export const appScreens = [
  'app/sign-in',
  'app/home',
  'app/patients',
  'app/patient/detail',
  'app/treatment/start',
  'app/treatment/summary',
  'app/settings',
];

/**
 * What goes wrong on a machine, as its app reports it (error logs: resource, functionName, message):
 * `resource` is the call that failed, `screen` the screen it was on.
 */
export const appErrors = [
  {
    resource: 'POST /api/v1/app/treatments',
    functionName: 'syncTreatments',
    screen: 'app/treatment/summary',
    message: 'Network unreachable; 12 treatments kept for the next sync',
  },
  {
    resource: 'POST /api/v1/app/treatments',
    functionName: 'encodeTreatmentImage',
    screen: 'app/treatment/start',
    message: 'Camera image could not be encoded; the picture was retaken',
  },
  {
    resource: 'POST /api/v1/app/login',
    functionName: 'signIn',
    screen: 'app/sign-in',
    message: 'Invalid user name or password',
  },
  {
    resource: 'POST /api/v1/app/heartbeat',
    functionName: 'sendHeartbeat',
    screen: 'app/home',
    message: 'Request timed out after 30 s',
  },
  {
    resource: 'POST /api/v1/app/patients',
    functionName: 'syncPatients',
    screen: 'app/patients',
    message: 'Server answered 503; retrying with the same ids',
  },
  {
    resource: 'GET /api/v1/app/updates/latest',
    functionName: 'checkForUpdate',
    screen: 'app/settings',
    message: 'Update server did not answer in time',
  },
];

/** A machine's address as a log records it: documentation ranges (RFC 5737), never a real host. */
export const fakeIp = (rng: Rng) => `${rng.pick(['203.0.113', '198.51.100', '192.0.2'])}.${rng.int(2, 254)}`;

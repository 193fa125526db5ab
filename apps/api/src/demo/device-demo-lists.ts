/*
 * The demo fleet's vocabulary: people's names, practices, treatment plans, and what the machines'
 * app calls and reports (the real device API routes, docs/device-api.md), so demo rows look like
 * the rows the fleet simulator and the app produce.
 */

export const firstNames = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Paul',
  'Rosa',
  'Samir',
  'Tara',
  'Umar',
  'Vera',
  'Yusuf',
  'Zoe',
  'Lucas',
  'Amira',
  'Mateo',
  'Sofia',
  'Ethan',
  'Hana',
  'Leon',
];
export const lastNames = [
  'Schmidt',
  'Rossi',
  'Dubois',
  'García',
  'Jensen',
  'Novak',
  'Kowalski',
  'Silva',
  'Müller',
  'Bianchi',
  'Martin',
  'Lindqvist',
  'Okafor',
  'Tanaka',
  'Kim',
  'Patel',
  'Smith',
  'Nguyen',
  'Cohen',
  'Haddad',
  'Fischer',
  'Moreau',
  'Larsen',
  'Costa',
];
export const practices = [
  'Physio Clinic',
  'Sports Medicine Centre',
  'Orthopaedic Practice',
  'Rehab Centre',
  'Pain Clinic',
  'Medical Centre',
];
export const districts = [
  'Central',
  'North',
  'South',
  'East',
  'West',
  'Riverside',
  'Old Town',
  'Harbour',
  'University',
  'Park',
];
export const models = ['ShockWave S1', 'ShockWave S2 Pro', 'RadialWave R5', 'FocusWave F3'];
export const plans = [
  'Plantar fasciitis, 5 sessions',
  'Tennis elbow, 4 sessions',
  'Achilles tendinopathy, 6 sessions',
  'Calcific shoulder, 3 sessions',
  'Patellar tendinopathy, 5 sessions',
  'Lower back pain, 6 sessions',
  'Hip bursitis, 4 sessions',
  'Myofascial trigger points, 3 sessions',
];
/**
 * What a machine's app logs (its access logs): the device API routes it calls, weighted by how
 * often it calls them (heartbeats every few minutes, record syncs after sessions).
 */
export const appResources = [
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
export const technicianResources = ['POST /api/v1/app/doctors', 'GET /api/v1/app/doctors'];

/** What goes wrong on a machine, as its app reports it (error logs: resource, functionName, message). */
export const appErrors = [
  {
    resource: 'POST /api/v1/app/treatments',
    functionName: 'syncTreatments',
    message: 'Network unreachable; 12 treatments kept for the next sync',
  },
  {
    resource: 'POST /api/v1/app/treatments',
    functionName: 'encodeTreatmentImage',
    message: 'Camera image could not be encoded; the picture was retaken',
  },
  {
    resource: 'POST /api/v1/app/login',
    functionName: 'signIn',
    message: 'Invalid user name or password',
  },
  {
    resource: 'POST /api/v1/app/heartbeat',
    functionName: 'sendHeartbeat',
    message: 'Request timed out after 30 s',
  },
  {
    resource: 'POST /api/v1/app/patients',
    functionName: 'syncPatients',
    message: 'Server answered 503; retrying with the same ids',
  },
  {
    resource: 'GET /api/v1/app/updates/latest',
    functionName: 'checkForUpdate',
    message: 'Update server did not answer in time',
  },
];

/** The treatment app's releases (the demo's App Update list): versionCode → versionName. */
export const appVersions = [
  { code: 20, name: '1.1.0' },
  { code: 30, name: '1.2.0' },
  { code: 40, name: '1.3.0' },
] as const;

import { deflateSync } from 'node:zlib';
import type {
  AccessLogItem,
  DoctorItem,
  ErrorLogItem,
  PatientItem,
  TreatmentItem,
} from '@app/contract/device-api';

/*
 * Deterministic fake records for the fleet simulator: one seeded generator per machine, so a run
 * with the same seed registers the same people (item ids stay random UUIDs: they are the
 * idempotency keys and must never collide between runs against the same server).
 */

/** mulberry32: a tiny seeded generator, good enough for fake names. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

const firstNames = [
  'Amira',
  'Ben',
  'Chen',
  'Dara',
  'Elif',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kai',
  'Lina',
];
const lastNames = [
  'Ahmed',
  'Becker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ivanova',
  'Jensen',
];
const places = [
  { city: 'Berlin', state: 'Berlin', country: 'Germany', lat: 52.52, long: 13.405 },
  { city: 'Lyon', state: 'Auvergne-Rhône-Alpes', country: 'France', lat: 45.764, long: 4.8357 },
  { city: 'Porto', state: 'Porto', country: 'Portugal', lat: 41.1579, long: -8.6291 },
  { city: 'Austin', state: 'Texas', country: 'United States', lat: 30.2672, long: -97.7431 },
  { city: 'Pune', state: 'Maharashtra', country: 'India', lat: 18.5204, long: 73.8567 },
] as const;
export const treatmentPlans = [
  'Knee, 3 sessions',
  'Lower back, 6 sessions',
  'Shoulder, 4 sessions',
  'Heel spur, 5 sessions',
];
const screens = ['home', 'patients', 'patient/detail', 'treatment/start', 'treatment/summary', 'settings'];
const failures = [
  { functionName: 'PulseController.arm', message: 'Capacitor charge timed out after 800 ms' },
  { functionName: 'SyncWorker.flush', message: 'Network unreachable' },
  { functionName: 'CameraFragment.capture', message: 'Camera busy' },
];

export const placeOf = (random: Random) => random.pick(places);

function person(random: Random, machineNumber: string, tag: string, createdAt: Date) {
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  const place = random.pick(places);
  const handle = `${first}.${last}.${tag}`.toLowerCase().replace(/[^a-z0-9.]/g, '');
  return {
    id: crypto.randomUUID(),
    username: handle,
    nickName: `${first} ${last}`,
    email: `${handle}@clinic.example`,
    sex: random.int(0, 2),
    age: random.int(18, 90),
    phonenumber: `+49${String(random.int(1_000_000_000, 1_999_999_999))}`,
    machineNumber,
    lat: place.lat,
    long: place.long,
    address: `${random.int(1, 200)} Main Street`,
    city: place.city,
    state: place.state,
    country: place.country,
    createdAt: createdAt.toISOString(),
  };
}

export const fakeDoctor = (
  random: Random,
  machineNumber: string,
  tag: string,
  roleId: number,
  password: string,
  at: Date,
): DoctorItem => ({ ...person(random, machineNumber, tag, at), password, roleId });

/** Patients do not sign in: their user name is the name the console shows, as a person types it. */
export const fakePatient = (random: Random, machineNumber: string, tag: string, at: Date): PatientItem => {
  const patient = person(random, machineNumber, tag, at);
  return { ...patient, username: patient.nickName };
};

export function fakeTreatment(random: Random, patientId: string, images: string[], at: Date): TreatmentItem {
  const minutes = random.int(5, 40);
  const energy = Math.round(random.next() * 200) / 10;
  const pulses = random.int(500, 3000);
  return {
    id: crypto.randomUUID(),
    patientId,
    treatmentDevice: 'ESWT Pro 2',
    treatmentPlan: random.pick(treatmentPlans),
    treatmentStartTime: new Date(at.getTime() - minutes * 60_000).toISOString(),
    treatmentEndTime: at.toISOString(),
    treatmentDuration: minutes,
    treatmentEnergy: energy,
    totalEnergyOutput: Math.round(energy * pulses),
    treatmentImages: images.map((data) => ({ id: crypto.randomUUID(), data })),
  };
}

export const fakeAccessLog = (random: Random, userId: number | undefined, at: Date): AccessLogItem => ({
  id: crypto.randomUUID(),
  resource: `app/${random.pick(screens)}`,
  location: `10.0.${random.int(0, 255)}.${random.int(1, 254)}`,
  time: at.toISOString(),
  ...(userId === undefined ? {} : { userId }),
});

export function fakeErrorLog(random: Random, userId: number | undefined, at: Date): ErrorLogItem {
  const failure = random.pick(failures);
  return {
    id: crypto.randomUUID(),
    resource: `app/${random.pick(screens)}`,
    functionName: failure.functionName,
    message: failure.message,
    utcTime: at.toISOString(),
    ...(userId === undefined ? {} : { userId }),
  };
}

// ---------- images ----------

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A small RGB PNG (a gradient tinted by the seed): a real image the server can decode and re-encode. */
export function tinyPng(random: Random, width = 32, height = 24): Buffer {
  const [r0, g0, b0] = [random.int(0, 255), random.int(0, 255), random.int(0, 255)];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0 (None), then RGB triples
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (r0 + x * 6) & 0xff;
      row[2 + x * 3] = (g0 + y * 8) & 0xff;
      row[3 + x * 3] = (b0 + x * y) & 0xff;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The same picture as a JPEG (camera captures are JPEGs), through sharp. */
export async function tinyJpeg(random: Random): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(tinyPng(random)).jpeg({ quality: 70 }).toBuffer();
}

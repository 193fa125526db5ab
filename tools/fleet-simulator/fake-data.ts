import { deflateSync } from 'node:zlib';
import type {
  AccessLogItem,
  DoctorItem,
  ErrorLogItem,
  PatientItem,
  TreatmentItem,
} from '@app/contract/device-api';
import { appErrors, appScreens, fakeIp } from '@app/fake-data/app-logs';
import { appPhone, fakeName, fakeResident } from '@app/fake-data/people';
import { cities } from '@app/fake-data/places';
import { createRng, type Rng } from '@app/fake-data/random';
import { fakeSession, treatmentPlans } from '@app/fake-data/treatments';

/*
 * The device API's items, made of the fake data the demo data set uses too (@app/fake-data): one
 * seeded generator per machine, so a run with the same seed registers the same people. Item ids stay
 * random UUIDs: they are the idempotency keys and must never collide between runs against the same
 * server.
 */

/** A machine's generator: the same seed, the same people and records. */
export const seededRandom = (seed: number): Rng => createRng(seed);

export const placeOf = (random: Rng) => random.pick(cities);

/** As the app registers a person; `tag` keeps the user name unique on the machine. */
function person(random: Rng, machineNumber: string, tag: string, createdAt: Date) {
  const place = placeOf(random);
  const name = fakeName(random);
  const { latitude, longitude, ...resident } = fakeResident(random, place, [18, 90]);
  return {
    id: crypto.randomUUID(),
    username: `${name.handle}.${tag}`.toLowerCase().replace(/[^a-z0-9.]/g, ''),
    nickName: name.first,
    name: name.name,
    email: name.email,
    phonenumber: appPhone(random),
    machineNumber,
    lat: latitude,
    long: longitude,
    ...resident,
    createdAt: createdAt.toISOString(),
  };
}

export const fakeDoctor = (
  random: Rng,
  machineNumber: string,
  tag: string,
  roleId: number,
  password: string,
  at: Date,
): DoctorItem => {
  const { name: _name, ...doctor } = person(random, machineNumber, tag, at);
  return { ...doctor, password, roleId };
};

/** Patients do not sign in: their user name is the name the console shows, as a person types it. */
export const fakePatient = (random: Rng, machineNumber: string, tag: string, at: Date): PatientItem => {
  const { name, ...patient } = person(random, machineNumber, tag, at);
  return { ...patient, username: name };
};

export function fakeTreatment(random: Rng, patientId: string, images: string[], at: Date): TreatmentItem {
  const session = fakeSession(random);
  return {
    id: crypto.randomUUID(),
    patientId,
    treatmentDevice: session.model,
    treatmentPlan: random.pick(treatmentPlans),
    treatmentStartTime: new Date(at.getTime() - session.duration * 60_000).toISOString(),
    treatmentEndTime: at.toISOString(),
    treatmentDuration: session.duration,
    treatmentEnergy: session.energy,
    totalEnergyOutput: session.totalEnergyOutput,
    treatmentImages: images.map((data) => ({ id: crypto.randomUUID(), data })),
  };
}

export const fakeAccessLog = (random: Rng, userId: number | undefined, at: Date): AccessLogItem => ({
  id: crypto.randomUUID(),
  resource: random.pick(appScreens),
  location: fakeIp(random),
  time: at.toISOString(),
  ...(userId === undefined ? {} : { userId }),
});

export function fakeErrorLog(random: Rng, userId: number | undefined, at: Date): ErrorLogItem {
  const failure = random.pick(appErrors);
  return {
    id: crypto.randomUUID(),
    resource: failure.screen,
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
export function tinyPng(random: Rng, width = 32, height = 24): Buffer {
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
export async function tinyJpeg(random: Rng): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(tinyPng(random)).jpeg({ quality: 70 }).toBuffer();
}

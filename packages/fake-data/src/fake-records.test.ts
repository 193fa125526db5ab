import { describe, expect, it } from 'vitest';
import { patientItemSchema, treatmentItemSchema } from '@app/contract/device-api';
import { deviceCreateBodySchema } from '@app/contract/devices';
import { userCreateBodySchema } from '@app/contract/users';
import { appErrors, appRoutes, appScreens, fakeIp, technicianRoutes } from './app-logs.ts';
import { appPhone, consolePhone, fakeName, fakeResident } from './people.ts';
import { cities, fakeClinic } from './places.ts';
import { createRng } from './random.ts';
import { fakeSession, treatmentPlans } from './treatments.ts';

/*
 * The demo data set stores, and the fleet simulator sends, what these make: each must be something
 * the API itself accepts, checked against the contract's own schemas over many draws.
 */

const rng = createRng('fake-records');
const id = '0b8f7c2e-3f5e-4a8e-9d57-7e0f4b1d2a10';

describe('the fake data', () => {
  it('makes people the device API takes: names, addresses, phone numbers, e-mail addresses', () => {
    for (let i = 0; i < 500; i++) {
      const city = rng.pick(cities);
      const name = fakeName(rng);
      const { latitude, longitude, ...resident } = fakeResident(rng, city, [18, 90]);
      const patient = {
        id,
        username: name.name,
        nickName: name.first,
        email: name.email,
        phonenumber: appPhone(rng),
        machineNumber: 'MN-1001',
        lat: latitude,
        long: longitude,
        ...resident,
        createdAt: '2025-06-01T12:00:00Z',
      };
      expect(patientItemSchema.safeParse(patient).error?.issues).toBeUndefined();
      expect(name.handle).toMatch(/^[a-z]+\.[a-z]+$/);
      expect(Math.abs(latitude - city.lat)).toBeLessThanOrEqual(0.0501);
    }
  });

  it('spells user names and addresses in plain letters whatever the accents: García is garcia', () => {
    const names = Array.from({ length: 400 }, () => fakeName(rng));
    const garcia = names.find((n) => n.last === 'García')!;
    expect(garcia.handle).toBe(`${garcia.first.toLowerCase()}.garcia`);
    expect(garcia.email).toMatch(/^[a-z]+\.garcia\d{1,2}@example\.(com|org|net)$/);
  });

  it('names each city’s region, so an address’s state is not just the city again', () => {
    expect(new Set(cities.map((c) => c.city)).size).toBe(cities.length);
    expect(cities.find((c) => c.city === 'Munich')).toMatchObject({ region: 'Bavaria', country: 'Germany' });
    expect(
      fakeResident(
        rng,
        cities.find((c) => c.city === 'Houston')!,
        [20, 30],
      ).state,
    ).toBe('Texas');
    for (const c of cities) {
      expect(c.region.length).toBeGreaterThan(0);
      expect(c.streets.length).toBeGreaterThan(0);
    }
  });

  it('makes machines the console’s Add Device form takes, and phone numbers its user form takes', () => {
    cities.forEach((city, i) => {
      const device = {
        machineNumber: `MN-${1001 + i}`,
        serialNumber: `SN-${i}`,
        ...fakeClinic(rng, city),
        city: city.city,
        country: city.country,
      };
      expect(deviceCreateBodySchema.safeParse(device).error?.issues).toBeUndefined();
      expect(device.address).toMatch(new RegExp(`^\\d+ .+, ${city.city}$`));
    });
    for (let i = 0; i < 200; i++)
      expect(userCreateBodySchema.shape.phone.parse(consolePhone(rng))).toMatch(/^\d{10}$/);
  });

  it('makes treatment sessions the device API takes, their total energy that of the pulses given', () => {
    for (let i = 0; i < 300; i++) {
      const session = fakeSession(rng);
      const treatment = {
        id,
        patientId: id,
        treatmentDevice: session.model,
        treatmentPlan: rng.pick(treatmentPlans),
        treatmentStartTime: '2025-06-01T11:00:00Z',
        treatmentEndTime: '2025-06-01T11:30:00Z',
        treatmentDuration: session.duration,
        treatmentEnergy: session.energy,
        totalEnergyOutput: session.totalEnergyOutput,
      };
      expect(treatmentItemSchema.safeParse(treatment).error?.issues).toBeUndefined();
      const pulses = session.totalEnergyOutput / session.energy;
      expect(pulses).toBeGreaterThanOrEqual(1500 - 1);
      expect(pulses).toBeLessThanOrEqual(3000 + 1);
    }
  });

  it('gives log addresses only from the documentation ranges', () => {
    for (let i = 0; i < 200; i++) expect(fakeIp(rng)).toMatch(/^(203\.0\.113|198\.51\.100|192\.0\.2)\.\d+$/);
  });

  it('names the app’s own screens unlike the routes the server records, so the two kinds of row never mix', () => {
    const route = /^(GET|POST|PUT|DELETE) \/api\/v1\/app\//;
    for (const resource of [...appRoutes, ...technicianRoutes, ...appErrors.map((e) => e.resource)])
      expect(resource).toMatch(route);
    for (const screen of [...appScreens, ...appErrors.map((e) => e.screen)]) {
      expect(screen).toMatch(/^app\/[a-z/-]+$/);
      expect(screen).not.toMatch(/^[A-Z]+ \//);
    }
  });
});

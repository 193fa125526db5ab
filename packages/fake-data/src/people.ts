import { near, type City } from './places.ts';
import type { Rng } from './random.ts';

/*
 * People as the machines' app registers them (doctors, patients, technicians): names from many
 * countries, e-mail addresses on the documentation domains, phone numbers in the shape each API takes.
 */

/** First and last names, drawn independently. */
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
export const mailDomains = ['example.com', 'example.org', 'example.net'];

/** A name in plain lower-case letters, as user names and e-mail addresses take it: "García" → "garcia". */
export const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/**
 * A person's name: `handle` is first.last in plain letters (the base of a user name), `email` that
 * with a number on one of the documentation domains. Callers that need unique names draw again.
 */
export function fakeName(rng: Rng) {
  const first = rng.pick(firstNames);
  const last = rng.pick(lastNames);
  const handle = `${ascii(first)}.${ascii(last)}`;
  return {
    first,
    last,
    name: `${first} ${last}`,
    handle,
    email: `${handle}${rng.int(1, 99)}@${rng.pick(mailDomains)}`,
  };
}

/**
 * What the app's person form holds besides the name (docs/product.md §5.7): sex (0 unknown, 1, 2),
 * age within `ages`, and where they live in `city`.
 */
export function fakeResident(rng: Rng, city: City, ages: readonly [number, number]) {
  return {
    sex: rng.chance(0.05) ? 0 : rng.int(1, 2),
    age: rng.int(ages[0], ages[1]),
    address: `${rng.int(1, 120)} ${rng.pick(city.streets)}, ${city.city}`,
    city: city.city,
    state: city.region,
    country: city.country,
    ...near(rng, city, 0.05),
  };
}

/** A phone number as the device API takes it: a + and 11 or 12 digits, the country code first. */
export const appPhone = (rng: Rng) =>
  `+${rng.int(1, 49)}${String(rng.int(100_000_000, 999_999_999))}${rng.int(0, 9)}`;

/** A phone number as the console's user form takes it: 10 digits. */
export const consolePhone = (rng: Rng) => String(rng.int(2_000_000_000, 9_999_999_999));

import type { Rng } from './random.ts';

/** A real city with its approximate centre, its region (the state an address names) and a few street names. */
export type City = {
  city: string;
  region: string;
  country: string;
  lat: number;
  lon: number;
  streets: readonly string[];
};

const en = ['High Street', 'Station Road', 'Park Avenue', 'Church Lane', 'Victoria Road', 'Mill Lane'];
const de = ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Lindenallee', 'Schillerstraße', 'Marktplatz'];
const fr = ['Rue de la Paix', 'Avenue Victor Hugo', 'Rue du Marché', 'Boulevard Voltaire', 'Rue Pasteur'];
const es = ['Calle Mayor', 'Avenida de la Constitución', 'Calle del Sol', 'Paseo del Prado', 'Calle Real'];
const it = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Via Dante', 'Piazza del Duomo'];
const nl = ['Kerkstraat', 'Stationsweg', 'Dorpsstraat', 'Molenweg', 'Nieuwstraat'];
const nordic = ['Storgatan', 'Kungsgatan', 'Drottninggatan', 'Parkvej', 'Strandvejen'];
const us = ['Main Street', 'Oak Avenue', 'Maple Drive', 'Washington Street', 'Elm Street', 'Lakeview Road'];
const intl = ['Central Avenue', 'Harbour Road', 'Garden Street', 'Hill Road', 'Market Street'];

/** Where the demo devices stand (one each) and where simulated machines and people are. */
export const cities: readonly City[] = [
  { city: 'Berlin', region: 'Berlin', country: 'Germany', lat: 52.52, lon: 13.405, streets: de },
  { city: 'Hamburg', region: 'Hamburg', country: 'Germany', lat: 53.5511, lon: 9.9937, streets: de },
  { city: 'Munich', region: 'Bavaria', country: 'Germany', lat: 48.1351, lon: 11.582, streets: de },
  {
    city: 'Cologne',
    region: 'North Rhine-Westphalia',
    country: 'Germany',
    lat: 50.9375,
    lon: 6.9603,
    streets: de,
  },
  { city: 'Frankfurt', region: 'Hesse', country: 'Germany', lat: 50.1109, lon: 8.6821, streets: de },
  { city: 'Vienna', region: 'Vienna', country: 'Austria', lat: 48.2082, lon: 16.3738, streets: de },
  { city: 'Zurich', region: 'Zurich', country: 'Switzerland', lat: 47.3769, lon: 8.5417, streets: de },
  { city: 'Geneva', region: 'Geneva', country: 'Switzerland', lat: 46.2044, lon: 6.1432, streets: fr },
  { city: 'Paris', region: 'Île-de-France', country: 'France', lat: 48.8566, lon: 2.3522, streets: fr },
  { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'France', lat: 45.764, lon: 4.8357, streets: fr },
  {
    city: 'Marseille',
    region: "Provence-Alpes-Côte d'Azur",
    country: 'France',
    lat: 43.2965,
    lon: 5.3698,
    streets: fr,
  },
  {
    city: 'Brussels',
    region: 'Brussels-Capital Region',
    country: 'Belgium',
    lat: 50.8503,
    lon: 4.3517,
    streets: fr,
  },
  {
    city: 'Amsterdam',
    region: 'North Holland',
    country: 'Netherlands',
    lat: 52.3676,
    lon: 4.9041,
    streets: nl,
  },
  {
    city: 'Rotterdam',
    region: 'South Holland',
    country: 'Netherlands',
    lat: 51.9244,
    lon: 4.4777,
    streets: nl,
  },
  {
    city: 'London',
    region: 'Greater London',
    country: 'United Kingdom',
    lat: 51.5074,
    lon: -0.1278,
    streets: en,
  },
  {
    city: 'Manchester',
    region: 'Greater Manchester',
    country: 'United Kingdom',
    lat: 53.4808,
    lon: -2.2426,
    streets: en,
  },
  {
    city: 'Edinburgh',
    region: 'Scotland',
    country: 'United Kingdom',
    lat: 55.9533,
    lon: -3.1883,
    streets: en,
  },
  { city: 'Dublin', region: 'County Dublin', country: 'Ireland', lat: 53.3498, lon: -6.2603, streets: en },
  {
    city: 'Madrid',
    region: 'Community of Madrid',
    country: 'Spain',
    lat: 40.4168,
    lon: -3.7038,
    streets: es,
  },
  { city: 'Barcelona', region: 'Catalonia', country: 'Spain', lat: 41.3874, lon: 2.1686, streets: es },
  {
    city: 'Valencia',
    region: 'Valencian Community',
    country: 'Spain',
    lat: 39.4699,
    lon: -0.3763,
    streets: es,
  },
  { city: 'Lisbon', region: 'Lisbon', country: 'Portugal', lat: 38.7223, lon: -9.1393, streets: es },
  { city: 'Rome', region: 'Lazio', country: 'Italy', lat: 41.9028, lon: 12.4964, streets: it },
  { city: 'Milan', region: 'Lombardy', country: 'Italy', lat: 45.4642, lon: 9.19, streets: it },
  { city: 'Naples', region: 'Campania', country: 'Italy', lat: 40.8518, lon: 14.2681, streets: it },
  {
    city: 'Copenhagen',
    region: 'Capital Region of Denmark',
    country: 'Denmark',
    lat: 55.6761,
    lon: 12.5683,
    streets: nordic,
  },
  {
    city: 'Stockholm',
    region: 'Stockholm County',
    country: 'Sweden',
    lat: 59.3293,
    lon: 18.0686,
    streets: nordic,
  },
  {
    city: 'Gothenburg',
    region: 'Västra Götaland',
    country: 'Sweden',
    lat: 57.7089,
    lon: 11.9746,
    streets: nordic,
  },
  { city: 'Oslo', region: 'Oslo', country: 'Norway', lat: 59.9139, lon: 10.7522, streets: nordic },
  { city: 'Helsinki', region: 'Uusimaa', country: 'Finland', lat: 60.1699, lon: 24.9384, streets: nordic },
  {
    city: 'Warsaw',
    region: 'Masovian Voivodeship',
    country: 'Poland',
    lat: 52.2297,
    lon: 21.0122,
    streets: intl,
  },
  {
    city: 'Krakow',
    region: 'Lesser Poland Voivodeship',
    country: 'Poland',
    lat: 50.0647,
    lon: 19.945,
    streets: intl,
  },
  { city: 'Prague', region: 'Prague', country: 'Czech Republic', lat: 50.0755, lon: 14.4378, streets: intl },
  { city: 'Budapest', region: 'Budapest', country: 'Hungary', lat: 47.4979, lon: 19.0402, streets: intl },
  { city: 'Athens', region: 'Attica', country: 'Greece', lat: 37.9838, lon: 23.7275, streets: intl },
  { city: 'Istanbul', region: 'Istanbul', country: 'Turkey', lat: 41.0082, lon: 28.9784, streets: intl },
  { city: 'New York', region: 'New York', country: 'United States', lat: 40.7128, lon: -74.006, streets: us },
  {
    city: 'Boston',
    region: 'Massachusetts',
    country: 'United States',
    lat: 42.3601,
    lon: -71.0589,
    streets: us,
  },
  { city: 'Chicago', region: 'Illinois', country: 'United States', lat: 41.8781, lon: -87.6298, streets: us },
  { city: 'Houston', region: 'Texas', country: 'United States', lat: 29.7604, lon: -95.3698, streets: us },
  { city: 'Miami', region: 'Florida', country: 'United States', lat: 25.7617, lon: -80.1918, streets: us },
  { city: 'Denver', region: 'Colorado', country: 'United States', lat: 39.7392, lon: -104.9903, streets: us },
  {
    city: 'Seattle',
    region: 'Washington',
    country: 'United States',
    lat: 47.6062,
    lon: -122.3321,
    streets: us,
  },
  {
    city: 'San Francisco',
    region: 'California',
    country: 'United States',
    lat: 37.7749,
    lon: -122.4194,
    streets: us,
  },
  {
    city: 'Los Angeles',
    region: 'California',
    country: 'United States',
    lat: 34.0522,
    lon: -118.2437,
    streets: us,
  },
  { city: 'Toronto', region: 'Ontario', country: 'Canada', lat: 43.6532, lon: -79.3832, streets: us },
  {
    city: 'Vancouver',
    region: 'British Columbia',
    country: 'Canada',
    lat: 49.2827,
    lon: -123.1207,
    streets: us,
  },
  { city: 'Montreal', region: 'Quebec', country: 'Canada', lat: 45.5017, lon: -73.5673, streets: fr },
  { city: 'Mexico City', region: 'Mexico City', country: 'Mexico', lat: 19.4326, lon: -99.1332, streets: es },
  { city: 'São Paulo', region: 'São Paulo', country: 'Brazil', lat: -23.5505, lon: -46.6333, streets: intl },
  {
    city: 'Buenos Aires',
    region: 'Buenos Aires',
    country: 'Argentina',
    lat: -34.6037,
    lon: -58.3816,
    streets: es,
  },
  {
    city: 'Sydney',
    region: 'New South Wales',
    country: 'Australia',
    lat: -33.8688,
    lon: 151.2093,
    streets: en,
  },
  { city: 'Melbourne', region: 'Victoria', country: 'Australia', lat: -37.8136, lon: 144.9631, streets: en },
  { city: 'Auckland', region: 'Auckland', country: 'New Zealand', lat: -36.8485, lon: 174.7633, streets: en },
  { city: 'Singapore', region: 'Singapore', country: 'Singapore', lat: 1.3521, lon: 103.8198, streets: intl },
  { city: 'Tokyo', region: 'Tokyo', country: 'Japan', lat: 35.6762, lon: 139.6503, streets: intl },
  { city: 'Seoul', region: 'Seoul', country: 'South Korea', lat: 37.5665, lon: 126.978, streets: intl },
  {
    city: 'Dubai',
    region: 'Dubai',
    country: 'United Arab Emirates',
    lat: 25.2048,
    lon: 55.2708,
    streets: intl,
  },
  { city: 'Mumbai', region: 'Maharashtra', country: 'India', lat: 19.076, lon: 72.8777, streets: intl },
  {
    city: 'Cape Town',
    region: 'Western Cape',
    country: 'South Africa',
    lat: -33.9249,
    lon: 18.4241,
    streets: intl,
  },
];

/** The parts of town a practice is named after, and the kinds of practice that run the machines. */
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
export const practices = [
  'Physio Clinic',
  'Sports Medicine Centre',
  'Orthopaedic Practice',
  'Rehab Centre',
  'Pain Clinic',
  'Medical Centre',
];

/** A point within about `spread` degrees of the city's centre, to four decimals (about 10 m). */
export function near(rng: Rng, city: City, spread: number): { latitude: number; longitude: number } {
  return {
    latitude: Number((city.lat + rng.float(-spread, spread, 4)).toFixed(4)),
    longitude: Number((city.lon + rng.float(-spread, spread, 4)).toFixed(4)),
  };
}

/** Where a machine stands: a practice named after its part of town, a street address in the city. */
export function fakeClinic(rng: Rng, city: City) {
  const location = `${rng.pick(districts)} ${rng.pick(practices)}`;
  const { latitude, longitude } = near(rng, city, 0.03);
  return {
    location,
    latitude,
    longitude,
    address: `${rng.int(1, 240)} ${rng.pick(city.streets)}, ${city.city}`,
  };
}

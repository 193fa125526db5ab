/** Real cities with their approximate centre, where the demo devices stand. */
export type City = { city: string; country: string; lat: number; lon: number; streets: readonly string[] };

const en = ['High Street', 'Station Road', 'Park Avenue', 'Church Lane', 'Victoria Road', 'Mill Lane'];
const de = ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Lindenallee', 'Schillerstraße', 'Marktplatz'];
const fr = ['Rue de la Paix', 'Avenue Victor Hugo', 'Rue du Marché', 'Boulevard Voltaire', 'Rue Pasteur'];
const es = ['Calle Mayor', 'Avenida de la Constitución', 'Calle del Sol', 'Paseo del Prado', 'Calle Real'];
const it = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Via Dante', 'Piazza del Duomo'];
const nl = ['Kerkstraat', 'Stationsweg', 'Dorpsstraat', 'Molenweg', 'Nieuwstraat'];
const nordic = ['Storgatan', 'Kungsgatan', 'Drottninggatan', 'Parkvej', 'Strandvejen'];
const us = ['Main Street', 'Oak Avenue', 'Maple Drive', 'Washington Street', 'Elm Street', 'Lakeview Road'];
const intl = ['Central Avenue', 'Harbour Road', 'Garden Street', 'Hill Road', 'Market Street'];

export const cities: readonly City[] = [
  { city: 'Berlin', country: 'Germany', lat: 52.52, lon: 13.405, streets: de },
  { city: 'Hamburg', country: 'Germany', lat: 53.5511, lon: 9.9937, streets: de },
  { city: 'Munich', country: 'Germany', lat: 48.1351, lon: 11.582, streets: de },
  { city: 'Cologne', country: 'Germany', lat: 50.9375, lon: 6.9603, streets: de },
  { city: 'Frankfurt', country: 'Germany', lat: 50.1109, lon: 8.6821, streets: de },
  { city: 'Vienna', country: 'Austria', lat: 48.2082, lon: 16.3738, streets: de },
  { city: 'Zurich', country: 'Switzerland', lat: 47.3769, lon: 8.5417, streets: de },
  { city: 'Geneva', country: 'Switzerland', lat: 46.2044, lon: 6.1432, streets: fr },
  { city: 'Paris', country: 'France', lat: 48.8566, lon: 2.3522, streets: fr },
  { city: 'Lyon', country: 'France', lat: 45.764, lon: 4.8357, streets: fr },
  { city: 'Marseille', country: 'France', lat: 43.2965, lon: 5.3698, streets: fr },
  { city: 'Brussels', country: 'Belgium', lat: 50.8503, lon: 4.3517, streets: fr },
  { city: 'Amsterdam', country: 'Netherlands', lat: 52.3676, lon: 4.9041, streets: nl },
  { city: 'Rotterdam', country: 'Netherlands', lat: 51.9244, lon: 4.4777, streets: nl },
  { city: 'London', country: 'United Kingdom', lat: 51.5074, lon: -0.1278, streets: en },
  { city: 'Manchester', country: 'United Kingdom', lat: 53.4808, lon: -2.2426, streets: en },
  { city: 'Edinburgh', country: 'United Kingdom', lat: 55.9533, lon: -3.1883, streets: en },
  { city: 'Dublin', country: 'Ireland', lat: 53.3498, lon: -6.2603, streets: en },
  { city: 'Madrid', country: 'Spain', lat: 40.4168, lon: -3.7038, streets: es },
  { city: 'Barcelona', country: 'Spain', lat: 41.3874, lon: 2.1686, streets: es },
  { city: 'Valencia', country: 'Spain', lat: 39.4699, lon: -0.3763, streets: es },
  { city: 'Lisbon', country: 'Portugal', lat: 38.7223, lon: -9.1393, streets: es },
  { city: 'Rome', country: 'Italy', lat: 41.9028, lon: 12.4964, streets: it },
  { city: 'Milan', country: 'Italy', lat: 45.4642, lon: 9.19, streets: it },
  { city: 'Naples', country: 'Italy', lat: 40.8518, lon: 14.2681, streets: it },
  { city: 'Copenhagen', country: 'Denmark', lat: 55.6761, lon: 12.5683, streets: nordic },
  { city: 'Stockholm', country: 'Sweden', lat: 59.3293, lon: 18.0686, streets: nordic },
  { city: 'Gothenburg', country: 'Sweden', lat: 57.7089, lon: 11.9746, streets: nordic },
  { city: 'Oslo', country: 'Norway', lat: 59.9139, lon: 10.7522, streets: nordic },
  { city: 'Helsinki', country: 'Finland', lat: 60.1699, lon: 24.9384, streets: nordic },
  { city: 'Warsaw', country: 'Poland', lat: 52.2297, lon: 21.0122, streets: intl },
  { city: 'Krakow', country: 'Poland', lat: 50.0647, lon: 19.945, streets: intl },
  { city: 'Prague', country: 'Czech Republic', lat: 50.0755, lon: 14.4378, streets: intl },
  { city: 'Budapest', country: 'Hungary', lat: 47.4979, lon: 19.0402, streets: intl },
  { city: 'Athens', country: 'Greece', lat: 37.9838, lon: 23.7275, streets: intl },
  { city: 'Istanbul', country: 'Turkey', lat: 41.0082, lon: 28.9784, streets: intl },
  { city: 'New York', country: 'United States', lat: 40.7128, lon: -74.006, streets: us },
  { city: 'Boston', country: 'United States', lat: 42.3601, lon: -71.0589, streets: us },
  { city: 'Chicago', country: 'United States', lat: 41.8781, lon: -87.6298, streets: us },
  { city: 'Houston', country: 'United States', lat: 29.7604, lon: -95.3698, streets: us },
  { city: 'Miami', country: 'United States', lat: 25.7617, lon: -80.1918, streets: us },
  { city: 'Denver', country: 'United States', lat: 39.7392, lon: -104.9903, streets: us },
  { city: 'Seattle', country: 'United States', lat: 47.6062, lon: -122.3321, streets: us },
  { city: 'San Francisco', country: 'United States', lat: 37.7749, lon: -122.4194, streets: us },
  { city: 'Los Angeles', country: 'United States', lat: 34.0522, lon: -118.2437, streets: us },
  { city: 'Toronto', country: 'Canada', lat: 43.6532, lon: -79.3832, streets: us },
  { city: 'Vancouver', country: 'Canada', lat: 49.2827, lon: -123.1207, streets: us },
  { city: 'Montreal', country: 'Canada', lat: 45.5017, lon: -73.5673, streets: fr },
  { city: 'Mexico City', country: 'Mexico', lat: 19.4326, lon: -99.1332, streets: es },
  { city: 'São Paulo', country: 'Brazil', lat: -23.5505, lon: -46.6333, streets: intl },
  { city: 'Buenos Aires', country: 'Argentina', lat: -34.6037, lon: -58.3816, streets: es },
  { city: 'Sydney', country: 'Australia', lat: -33.8688, lon: 151.2093, streets: en },
  { city: 'Melbourne', country: 'Australia', lat: -37.8136, lon: 144.9631, streets: en },
  { city: 'Auckland', country: 'New Zealand', lat: -36.8485, lon: 174.7633, streets: en },
  { city: 'Singapore', country: 'Singapore', lat: 1.3521, lon: 103.8198, streets: intl },
  { city: 'Tokyo', country: 'Japan', lat: 35.6762, lon: 139.6503, streets: intl },
  { city: 'Seoul', country: 'South Korea', lat: 37.5665, lon: 126.978, streets: intl },
  { city: 'Dubai', country: 'United Arab Emirates', lat: 25.2048, lon: 55.2708, streets: intl },
  { city: 'Mumbai', country: 'India', lat: 19.076, lon: 72.8777, streets: intl },
  { city: 'Cape Town', country: 'South Africa', lat: -33.9249, lon: 18.4241, streets: intl },
];

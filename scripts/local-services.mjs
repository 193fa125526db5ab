import net from 'node:net';

/*
 * The local servers some suites run on a second time when they answer: PostgreSQL (the API and fuzz
 * suites) and Redis (the throttling suite). TEST_DATABASE_URL / TEST_REDIS_URL point elsewhere;
 * TEST_POSTGRES=0 / TEST_REDIS=0 leave a run out.
 */

export const testPostgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

export async function testPostgresAvailable() {
  if (process.env.TEST_POSTGRES === '0') return false;
  return Boolean(process.env.TEST_DATABASE_URL) || answers(5432);
}

export async function testRedisAvailable() {
  if (process.env.TEST_REDIS === '0') return false;
  return Boolean(process.env.TEST_REDIS_URL) || answers(6379);
}

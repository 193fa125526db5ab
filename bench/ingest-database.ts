import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/** A port nobody listens on right now, for the API and the bare baseline server. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function sql(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

/**
 * A database of the bench's own on the PostgreSQL server at `serverUrl`, so a run never reads or
 * leaves rows in another one; `drop` removes it again.
 */
export async function createBenchDatabase(serverUrl: string) {
  const urlOf = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const name = `bench_ingest_${randomBytes(4).toString('hex')}`;
  await sql(urlOf('postgres'), `create database ${name}`);
  const url = urlOf(name);
  return {
    name,
    url,
    query: (text: string) => sql(url, text),
    drop: () => sql(urlOf('postgres'), `drop database if exists ${name} with (force)`).then(() => {}),
  };
}

import net from 'node:net';

/**
 * A TCP relay in front of Redis that a test can cut and restore, as a network outage would, or
 * freeze and thaw, as a Redis that stops answering would (its answers are held, then delivered in
 * order, as a Redis busy with something long does).
 */
export async function redisRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const held: Array<() => void> = [];
  const handle = (client: net.Socket) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (frozen) held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    upstream.on('end', () => client.end());
  };
  let server = net.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    async restore() {
      server = net.createServer(handle);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const write of held.splice(0)) write();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

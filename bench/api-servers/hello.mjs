// The ceiling of the stack: a bare Fastify server answering every benchmarked route with a fixed
// JSON body. Started by bench/api.mjs as its own process (PORT).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { code: 200, msg: 'OK', data: { hello: 'world' } };
for (const method of ['GET', 'POST', 'PUT']) app.route({ method, url: '/*', handler: async () => body });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

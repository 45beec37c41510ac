// The ceiling of one Node process on this machine: Fastify answering a 10 KiB buffer from
// memory, with no authentication, lookup or hooks. bench:storage measures it beside Depot
// and nginx, so the 10 KiB ratio can be read against what the framework alone reaches.
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const body = Buffer.alloc(10 * 1024, 7);
const app = Fastify();
app.get('/small.bin', (_request, reply) => reply.type('application/octet-stream').send(body));
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

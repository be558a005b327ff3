import Fastify from 'fastify';

// The baseline: a bare Fastify "hello world" (no logger, no plugins), run as its own process
// like the real server. Plain JavaScript, so no TypeScript loader sits in the process.
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

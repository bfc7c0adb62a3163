import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const big = readFileSync('/tmp/perm.out', 'utf8');
const bigGz = gzipSync(big);
const headers = {};
for (const line of readFileSync('/tmp/hdrs.txt', 'utf8').split('\n')) { const i = line.indexOf(':'); if (i > 0) headers[line.slice(0, i)] = line.slice(i + 2); }
const app = Fastify();
app.get('/small', async () => ({ hello: 'world' }));
app.get('/big', async (req, reply) => { reply.type('application/json; charset=utf-8'); return big; });
app.get('/bigh', async (req, reply) => { reply.headers(headers); reply.type('application/json; charset=utf-8'); return big; });
app.get('/gzh', async (req, reply) => { reply.headers(headers); reply.header('content-encoding', 'gzip'); reply.type('application/json; charset=utf-8'); return bigGz; });
app.get('/smallh', async (req, reply) => { reply.headers(headers); return { hello: 'world' }; });
app.get('/bigbh', async (req, reply) => { reply.headers(headers); reply.type('application/json; charset=utf-8'); return bigBuf; });
await app.listen({ port: 8091, host: '127.0.0.1' });
console.log('gz', bigGz.length);
const bigBuf = Buffer.from(big);
app2: {
}

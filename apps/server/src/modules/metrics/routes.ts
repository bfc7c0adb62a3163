import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { translate } from '@console/contract';
import { envelope } from '../../http/envelope.ts';
import type { ConsoleMetrics } from './registry.ts';

const PROMETHEUS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `/metrics` on the console's own port, for a scraper holding METRICS_TOKEN (`Authorization:
 * Bearer …`, compared in constant time). Without a token set it is not there at all (404): the
 * figures are never public.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: ConsoleMetrics; token?: string }> = async (app, { metrics, token }) => {
  app.get('/metrics', { config: { access: { auth: 'public' } }, schema: { hide: true } }, async (request, reply) => {
    // Not the console's not-found handler: that serves the console's page for any GET path.
    if (!token) return reply.code(404).send(envelope(false, 404, translate('notFound.route', request.language), null));
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), digest(token))) return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain').send('unauthorized\n');
    return reply.type(PROMETHEUS_TYPE).header('cache-control', 'no-store').send(await metrics.text());
  });
};

/**
 * `/metrics` on an address of its own (METRICS_LISTEN, e.g. 127.0.0.1:9464 or a private network's
 * address), without a token: what listens there is reachable only where the operators put it.
 */
export async function listenForMetrics(metrics: ConsoleMetrics, address: string): Promise<Server> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') return void response.writeHead(404).end();
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': PROMETHEUS_TYPE, 'cache-control': 'no-store' }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  return server;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS, isActionAllowed, ROLE_PERMISSIONS, translate, type Action, type PermissionId } from '@console/contract';
import { requireEnterprise } from './access.ts';
import { tooMany } from './errors.ts';

/** A live stream says it is alive this often (proxies close quiet connections). */
const HEARTBEAT_MS = 15_000;
/**
 * Streams open at once per sign-in and per address, across every live route: each holds a
 * connection and a descriptor, so one client may not take the server's (a person has a few tabs;
 * an office behind one address, many). Past the cap a new stream is refused with 429 and the open
 * ones are kept.
 */
export const MAX_STREAMS = { perToken: 10, perAddress: 100 };

/** What a stream's route gives: what to send and when; returns how to stop sending. */
export type StreamSource = (send: (event: string, data: unknown) => void, enterpriseId: number) => () => void;

/**
 * The server's live streams (server-sent events): the same token and enterprise checks as every
 * route, made again whenever sign-ins or memberships change (and at each heartbeat), so a revoked
 * token or a removed member loses the stream within a second. Closed with the server.
 */
export class EventStreams {
  private readonly streams = new Set<() => void>();
  private readonly openPerToken = new Map<string, number>();
  private readonly openPerAddress = new Map<string, number>();

  constructor(private readonly app: FastifyInstance) {
    app.addHook('preClose', async () => {
      for (const end of [...this.streams]) end();
    });
  }

  private count(counts: Map<string, number>, key: string, by: number) {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  }

  /** Answers `request` with a stream of what `source` sends, while the caller may still `[permission, action]` in its enterprise. */
  open(request: FastifyRequest, reply: FastifyReply, [permission, action]: [PermissionId, Action], source: StreamSource) {
    const { app } = this;
    const enterpriseId = requireEnterprise(request).id;
    const token = String(request.headers[HEADERS.token.toLowerCase()]);
    const tokenHash = request.tokenHash!;
    const enterpriseHeader = request.headers[HEADERS.enterprise.toLowerCase()];
    // Counted and checked in one step (no await between): 60 streams opened at once meet the same cap.
    const address = request.ip;
    const language = request.language;
    if ((this.openPerToken.get(tokenHash) ?? 0) >= MAX_STREAMS.perToken) throw tooMany('alerts.tooManyStreams', { max: MAX_STREAMS.perToken, who: translate('alerts.streamsOfSignIn', language) }, 60);
    if ((this.openPerAddress.get(address) ?? 0) >= MAX_STREAMS.perAddress) throw tooMany('alerts.tooManyStreams', { max: MAX_STREAMS.perAddress, who: translate('alerts.streamsOfAddress', language) }, 60);
    const stillAllowed = async () => {
      const user = await app.access.user(token, tokenHash);
      const enterprise = user && (await app.access.currentEnterprise(user.id, enterpriseHeader));
      return Boolean(enterprise && enterprise.id === enterpriseId && isActionAllowed(ROLE_PERMISSIONS[enterprise.role], permission, action));
    };

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    raw.write('retry: 3000\n\n');
    send('ready', { enterpriseId });

    let recheck: NodeJS.Timeout | null = null;
    const stopSource = source(send, enterpriseId);
    const checkSoon = () => {
      recheck ??= setTimeout(() => {
        recheck = null;
        void stillAllowed().then((allowed) => allowed || end(), () => {});
      }, 200);
    };
    const stopChanges = app.changes.on(checkSoon);
    const heartbeat = setInterval(() => {
      raw.write(': ping\n\n');
      checkSoon();
    }, HEARTBEAT_MS);
    const streams = this.streams;
    const end = () => {
      if (!streams.delete(end)) return;
      app.metrics.liveStreams.dec();
      this.count(this.openPerToken, tokenHash, -1);
      this.count(this.openPerAddress, address, -1);
      stopSource();
      stopChanges();
      clearInterval(heartbeat);
      if (recheck) clearTimeout(recheck);
      raw.end();
    };
    // Still the same tick as the check above: nothing awaited between them.
    this.count(this.openPerToken, tokenHash, 1);
    this.count(this.openPerAddress, address, 1);
    streams.add(end);
    app.metrics.liveStreams.inc();
    request.raw.on('close', end);
  }
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Aedes, type Client } from 'aedes';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { deviceUser, hashSecret, INGEST_USER } from './credentials.ts';
import { SENSOR_TOPIC } from './ingest.ts';

/**
 * The broker `npm start` runs in the process when no MQTT_URL is set (Aedes, MQTT 3.1.1): devices
 * connect with the credentials the console made for them (user `<enterprise id>/<code>`) and may
 * publish only to their own topic; only the server's own session may subscribe. A device whose
 * credentials are revoked is disconnected at once and refused from then on.
 */


interface Identity {
  ingest?: true;
  enterpriseId?: number;
  code?: string;
}

export class EmbeddedBroker {
  /** The password of the server's own session, new at every start (it never leaves the process). */
  readonly ingestPassword = randomBytes(24).toString('base64url');
  private broker: Aedes | null = null;
  private server: Server | null = null;
  private readonly identities = new WeakMap<Client, Identity>();
  private readonly clientsByUser = new Map<string, Set<Client>>();
  port = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async listen(host: string, port: number) {
    const broker = await Aedes.createBroker({
      authenticate: (client, username, password, done) => void this.authenticate(client, username, password).then((ok) => done(ok ? null : Object.assign(new Error('bad username or password'), { returnCode: 4 as const }), ok), () => done(Object.assign(new Error('server unavailable'), { returnCode: 3 as const }), false)),
      authorizePublish: (client, packet, done) => {
        // The server's own publishes (the demo's devices) have no client.
        if (!client) return done(null);
        const who = this.identities.get(client);
        const match = SENSOR_TOPIC.exec(packet.topic);
        if (who?.enterpriseId !== undefined && match && Number(match[1]) === who.enterpriseId && match[2] === who.code) return done(null);
        done(new Error('not this device\'s topic'));
      },
      authorizeSubscribe: (client, subscription, done) => done(this.identities.get(client)?.ingest ? null : new Error('devices publish only'), subscription),
    });
    broker.on('clientDisconnect', (client) => {
      const who = this.identities.get(client);
      if (who?.code !== undefined) this.clientsByUser.get(deviceUser(who.enterpriseId!, who.code))?.delete(client);
    });
    this.broker = broker;
    this.server = createServer(broker.handle);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as { port: number }).port;
  }

  private async authenticate(client: Client, username: string | undefined, password: Buffer | undefined): Promise<boolean> {
    if (!username || !password) return false;
    if (username === INGEST_USER) {
      const ok = safeEqual(password.toString(), this.ingestPassword);
      if (ok) this.identities.set(client, { ingest: true });
      return ok;
    }
    const match = /^(\d{1,9})\/([A-Za-z0-9._-]{1,64})$/.exec(username);
    if (!match) return false;
    const [row] = await queryRows<{ hash: string | null }>(
      this.db,
      sql`select credential_hash as hash from sensor_devices where enterprise_id = ${Number(match[1])} and code = ${match[2]}`,
    );
    if (!row?.hash || !safeEqual(hashSecret(password.toString()), row.hash)) return false;
    this.identities.set(client, { enterpriseId: Number(match[1]), code: match[2] });
    const clients = this.clientsByUser.get(username) ?? new Set();
    clients.add(client);
    this.clientsByUser.set(username, clients);
    return true;
  }

  /** A device's credentials were revoked or made again: its open connections end now. */
  disconnect(enterpriseId: number, code: string) {
    const user = deviceUser(enterpriseId, code);
    for (const client of this.clientsByUser.get(user) ?? []) client.close();
    this.clientsByUser.delete(user);
  }

  /** Publishes as the broker itself (the demo city's devices), QoS 1. */
  publish(topic: string, payload: string) {
    return new Promise<void>((resolve, reject) => this.broker?.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())));
  }

  async close() {
    await new Promise<void>((resolve) => (this.broker ? this.broker.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.log.debug('embedded broker closed');
  }
}

function safeEqual(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { ConsoleMetrics } from '../metrics/registry.ts';
import { EmbeddedBroker } from './broker.ts';
import { INGEST_USER } from './credentials.ts';
import { SensorIngest } from './ingest.ts';
import { MosquittoPasswords } from './mosquittoFile.ts';
import { SensorSimulator } from './simulator.ts';

/**
 * The sensors' live side of one server: the subscription to MQTT_URL's broker (shared with the
 * console's other servers), or the embedded broker with the demo city's devices publishing to it.
 * A broker that cannot be reached or a port that cannot be taken is logged, never the server's end:
 * the session keeps trying, and the rest of the console works meanwhile.
 */
export class SensorStreams {
  broker: EmbeddedBroker | null = null;
  ingest: SensorIngest | null = null;
  private simulator: SensorSimulator | null = null;
  private passwords: MosquittoPasswords | null = null;
  /** Where devices publish, as the console tells them (null: no broker). */
  brokerAddress: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: ConsoleMetrics,
    private readonly onChanged: (enterpriseId: number) => void,
  ) {}

  async start() {
    const { config } = this;
    const ingestOptions = { clientId: config.mqttClientId, receiveMaximum: 65_535, maximumPacketSize: 2 * 1024 * 1024, sessionExpirySeconds: config.mqttSessionExpirySeconds };
    if (config.mqttUrl) {
      const url = new URL(config.mqttUrl);
      const username = decodeURIComponent(url.username) || undefined;
      const password = decodeURIComponent(url.password) || undefined;
      url.username = '';
      url.password = '';
      // MQTT 5 shares the stream among the console's servers; 3.1.1 (no shared subscriptions in the standard) has each server take all.
      const topic = config.mqttProtocol === 5 ? `$share/${config.mqttShareGroup}/sensors/+/+` : 'sensors/+/+';
      this.ingest = new SensorIngest(this.db, { ...ingestOptions, url: url.toString(), username, password, protocolVersion: config.mqttProtocol, topic, shared: config.mqttProtocol === 5 }, this.log, this.metrics, this.onChanged);
      this.brokerAddress = `${url.protocol}//${url.host}`;
      if (config.mosquittoPasswordFile) {
        // The broker learns this server's account (and every device's) before the server connects.
        this.passwords = new MosquittoPasswords(this.db, config.mosquittoPasswordFile, config.mosquittoPidFile, username && password ? { username, password } : null, this.log);
        await this.passwords.sync();
      }
      await this.ingest.start();
      return;
    }
    if (!config.mqttListen) return;
    const broker = new EmbeddedBroker(this.db, this.log);
    try {
      await broker.listen(config.mqttListen.host, config.mqttListen.port);
    } catch (error) {
      this.log.error({ err: error, listen: config.mqttListen }, 'the embedded MQTT broker could not listen: sensors receive nothing (set MQTT_LISTEN, or MQTT_URL for a broker)');
      await broker.close().catch(() => {});
      return;
    }
    this.broker = broker;
    // Listening on every address: the server reaches it on loopback, devices at the console's host name.
    const everywhere = ['0.0.0.0', '::', ''].includes(config.mqttListen.host);
    const host = everywhere ? '127.0.0.1' : config.mqttListen.host;
    this.brokerAddress = `mqtt://${everywhere ? new URL(config.consoleUrl).hostname : host}:${broker.port}`;
    this.ingest = new SensorIngest(
      this.db,
      { ...ingestOptions, url: `mqtt://${host}:${broker.port}`, username: INGEST_USER, password: broker.ingestPassword, protocolVersion: 4, topic: 'sensors/+/+', shared: false },
      this.log,
      this.metrics,
      this.onChanged,
    );
    await this.ingest.start(true);
    this.simulator = new SensorSimulator(this.db, broker, this.log);
    this.simulator.start();
  }

  /** A device made, changed, removed or its credentials changed: the broker's accounts follow before the answer. */
  async deviceChanged(enterpriseId: number, code: string, credentialsChanged = false) {
    this.ingest?.forget(enterpriseId, code);
    if (!credentialsChanged) return;
    this.broker?.disconnect(enterpriseId, code);
    await this.passwords?.sync();
  }

  async close() {
    this.passwords?.close();
    this.simulator?.close();
    await this.ingest?.close();
    await this.broker?.close();
  }
}

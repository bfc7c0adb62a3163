import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';

/**
 * The server's MQTT session with the broker: a persistent session (clean start off, kept a week)
 * subscribed at QoS 1, whose acknowledgements are sent only once the readings are stored, so the
 * broker keeps whatever the server has not stored (while it is down, or the database is away).
 *
 * Written on mqtt-packet (the MQTT.js project's parser and writer) rather than MQTT.js's client:
 * that client hands messages over one at a time and sends each acknowledgement before it reads the
 * next message, so a store that acknowledges after writing could write one message per transaction.
 * Here messages arrive as fast as the broker sends them, up to the receive maximum the session
 * asks for (MQTT 5) or what the socket holds (reads are paused when too many wait), and are
 * acknowledged in batches.
 */

export interface SubscriberOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** 5 (Mosquitto, shared subscriptions) or 4 (MQTT 3.1.1: the embedded broker). */
  protocolVersion: 4 | 5;
  /** The filter subscribed to, e.g. `$share/console/sensors/+/+`. */
  topic: string;
  /** Messages the broker may send before any is acknowledged (MQTT 5). */
  receiveMaximum: number;
  /** How long the broker keeps the session while this server is away (MQTT 5). */
  sessionExpirySeconds: number;
  /** Packets larger than this are not sent by an MQTT 5 broker (and are dropped here). */
  maximumPacketSize: number;
  onMessage(message: { topic: string; payload: Buffer; ack: () => void }): void;
  onState?(state: 'connected' | 'disconnected', detail?: string): void;
}

const KEEPALIVE_S = 30;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15_000;

export class MqttSubscriber {
  private socket: Socket | null = null;
  /** Bumped at every connection: an acknowledgement for a message of an earlier one is not sent. */
  private generation = 0;
  private closed = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  private connectedOnce: Promise<void>;
  private resolveConnected!: () => void;
  connected = false;

  constructor(private readonly options: SubscriberOptions) {
    this.connectedOnce = new Promise((resolve) => (this.resolveConnected = resolve));
  }

  /** Starts connecting (and keeps connecting again); resolves once subscribed, or at once when `wait` is false. */
  start(wait = false): Promise<void> {
    this.open();
    return wait ? this.connectedOnce : Promise.resolve();
  }

  private unsubscribed: (() => void) | null = null;

  /** Leaves the subscription (the broker sends nothing more to this session); resolves when the broker says so, or after 2 s. */
  unsubscribe(): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.connected) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      this.unsubscribed = () => {
        clearTimeout(timer);
        resolve();
      };
      this.send(socket, { cmd: 'unsubscribe', messageId: 2, unsubscriptions: [this.options.topic] } as Packet);
    });
  }

  pause() {
    this.socket?.pause();
  }

  resume() {
    this.socket?.resume();
  }

  async close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      // A DISCONNECT keeps the session (and what it has not acknowledged) on the broker.
      await new Promise<void>((resolve) => {
        socket.write(mqttPacket.generate({ cmd: 'disconnect' } as Packet, { protocolVersion: this.options.protocolVersion }), () => resolve());
        setTimeout(resolve, 500).unref();
      });
      socket.destroy();
    }
    this.stopPing();
  }

  private acks: number[] = [];
  private acksFor: Socket | null = null;

  /**
   * Acknowledgements of a stored batch go out as one write: PUBACK with success and no properties
   * is the same four bytes in MQTT 3.1.1 and 5 (type 4, length 2, the message id).
   */
  private queueAck(socket: Socket, messageId: number) {
    if (this.acksFor !== socket) this.acks = [];
    this.acksFor = socket;
    if (!this.acks.length) queueMicrotask(() => this.sendAcks());
    this.acks.push(messageId);
  }

  private sendAcks() {
    const socket = this.acksFor;
    const ids = this.acks;
    this.acks = [];
    if (!socket || socket.destroyed || !ids.length) return;
    const packets = Buffer.allocUnsafe(ids.length * 4);
    ids.forEach((id, i) => packets.writeUInt32BE((0x40 << 24) | (0x02 << 16) | id, i * 4));
    socket.write(packets);
  }

  private send(socket: Socket, packet: Packet) {
    if (!socket.destroyed) socket.write(mqttPacket.generate(packet, { protocolVersion: this.options.protocolVersion }));
  }

  private open() {
    if (this.closed) return;
    const url = new URL(this.options.url);
    const secure = url.protocol === 'mqtts:' || url.protocol === 'ssl:';
    const port = Number(url.port || (secure ? 8883 : 1883));
    const socket = secure ? connectTls({ host: url.hostname, port, servername: url.hostname }) : connectTcp({ host: url.hostname, port });
    socket.setNoDelay(true);
    const generation = ++this.generation;
    this.socket = socket;
    const { protocolVersion } = this.options;
    const parser = mqttPacket.parser({ protocolVersion });
    socket.on(secure ? 'secureConnect' : 'connect', () => {
      this.send(socket, {
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion,
        clientId: this.options.clientId,
        clean: false,
        keepalive: KEEPALIVE_S,
        ...(this.options.username ? { username: this.options.username } : {}),
        ...(this.options.password ? { password: Buffer.from(this.options.password) } : {}),
        ...(protocolVersion === 5
          ? { properties: { sessionExpiryInterval: this.options.sessionExpirySeconds, receiveMaximum: this.options.receiveMaximum, maximumPacketSize: this.options.maximumPacketSize } }
          : {}),
      });
    });
    parser.on('packet', (packet: Packet) => {
      this.lastHeard = Date.now();
      switch (packet.cmd) {
        case 'connack': {
          const code = (packet as { reasonCode?: number; returnCode?: number }).reasonCode ?? (packet as { returnCode?: number }).returnCode ?? 0;
          if (code !== 0) {
            this.options.onState?.('disconnected', `connection refused (${code})`);
            socket.destroy();
            return;
          }
          this.send(socket, { cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: this.options.topic, qos: 1 }] } as Packet);
          return;
        }
        case 'suback': {
          const granted = (packet as { granted: number[] }).granted;
          if (granted.some((g) => g > 2)) {
            this.options.onState?.('disconnected', `subscription refused (${granted.join(',')})`);
            socket.destroy();
            return;
          }
          this.connected = true;
          this.retryMs = RETRY_MIN_MS;
          this.startPing(socket);
          this.options.onState?.('connected');
          this.resolveConnected();
          return;
        }
        case 'publish': {
          const publish = packet as IPublishPacket;
          const payload = Buffer.isBuffer(publish.payload) ? publish.payload : Buffer.from(publish.payload);
          let acked = false;
          const ack = () => {
            if (acked || publish.qos === 0 || generation !== this.generation) return;
            acked = true;
            this.queueAck(socket, publish.messageId!);
          };
          this.options.onMessage({ topic: publish.topic, payload, ack });
          return;
        }
        case 'unsuback':
          this.unsubscribed?.();
          this.unsubscribed = null;
          return;
        case 'pubrel':
          // Not subscribed at QoS 2, but a broker may still finish one it began.
          this.send(socket, { cmd: 'pubcomp', messageId: packet.messageId } as Packet);
          return;
        case 'disconnect':
          socket.destroy();
          return;
        default:
          return;
      }
    });
    parser.on('error', (error: Error) => {
      this.options.onState?.('disconnected', `protocol error: ${error.message}`);
      socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.stopPing();
      if (this.socket === socket) this.socket = null;
      if (this.connected) this.options.onState?.('disconnected', 'connection lost');
      this.connected = false;
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.open(), this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    });
  }

  private startPing(socket: Socket) {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      // Nothing heard for one and a half keep-alives: the broker is gone (a half-open connection).
      if (Date.now() - this.lastHeard > KEEPALIVE_S * 1500) socket.destroy();
      else this.send(socket, { cmd: 'pingreq' } as Packet);
    }, (KEEPALIVE_S * 1000) / 2);
    this.pingTimer.unref();
  }

  private stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}

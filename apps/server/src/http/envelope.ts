import type { FastifyReply, FastifyRequest } from 'fastify';
import { translate, type Envelope, type MessageKey, type MessageParam } from '@console/contract';

export function envelope<T>(success: boolean, code: number, message: string, result: T): Envelope<T> {
  return { success, code, message, result, timestamp: Date.now() };
}

/** A successful answer: 200 and the envelope. */
export function ok<T>(request: FastifyRequest, result: T, messageKey: MessageKey = 'ok', params: Record<string, MessageParam> = {}): Envelope<T> {
  return envelope(true, 200, translate(messageKey, request.language, params), result);
}

/** A refused answer that is not an HTTP error (the spec's `success: false` with a message). */
export function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  messageKey: MessageKey,
  status = 200,
): Envelope<null> {
  reply.code(status);
  return envelope(false, status, translate(messageKey, request.language), null);
}

/**
 * A result already serialized (a cached read), kept as UTF-8 bytes: the envelope around it is
 * written without serializing or encoding the result again (names in Chinese make a JS string
 * two bytes a character, and encoding 3-200 KB of it on every answer was a tenth of a cached
 * read's work). Anything else that serializes it still gets the same JSON.
 */
export class SerializedJson {
  readonly bytes: Buffer;
  /** The JSON text, or its UTF-8 pieces in order (encoded once each by whoever keeps them). */
  constructor(json: string | readonly Buffer[]) {
    this.bytes = typeof json === 'string' ? Buffer.from(json) : Buffer.concat(json);
  }
  get json(): string {
    return this.bytes.toString();
  }
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

const RESULT_END = Buffer.from('}');

/** The server's JSON writer: an envelope whose result is SerializedJson has its bytes spliced in as they are. */
export function serializePayload(payload: unknown): string | Buffer {
  if (payload !== null && typeof payload === 'object' && (payload as Envelope<unknown>).result instanceof SerializedJson) {
    const { result, ...rest } = payload as Envelope<SerializedJson>;
    return Buffer.concat([Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"result":`), result.bytes, RESULT_END]);
  }
  return JSON.stringify(payload);
}

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
 * A result already serialized (a cached read): the envelope around it is written without
 * serializing the result again. Anything else that serializes it still gets the same JSON.
 */
export class SerializedJson {
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The server's JSON writer: an envelope whose result is SerializedJson has it spliced in as is. */
export function serializePayload(payload: unknown): string {
  if (payload !== null && typeof payload === 'object' && (payload as Envelope<unknown>).result instanceof SerializedJson) {
    const { result, ...rest } = payload as Envelope<SerializedJson>;
    return `${JSON.stringify(rest).slice(0, -1)},"result":${result.json}}`;
  }
  return JSON.stringify(payload);
}

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

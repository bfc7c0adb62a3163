import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema.ts';

/** Sends a text message. Replace the local provider with a carrier's gateway in production. */
export interface SmsProvider {
  send(phone: string, text: string): Promise<void>;
}

/**
 * The default provider: nothing leaves the machine. The message goes to the server log and to
 * the sms_outbox table, where a local user (and a test) can read the code.
 */
export function localSmsProvider(db: Db, log: FastifyBaseLogger): SmsProvider {
  return {
    async send(phone, text) {
      await db.insert(smsOutbox).values({ phone, body: text });
      log.info({ phone, sms: text }, 'sms written to outbox');
    },
  };
}

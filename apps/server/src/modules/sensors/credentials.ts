import { createHash, pbkdf2Sync, randomBytes } from 'node:crypto';

/** The server's own session on the embedded broker (its password is new at every start). */
export const INGEST_USER = 'console-ingest';

/** A device's password is a random 144-bit secret: a fast hash keeps it safe at rest. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The MQTT user name a device connects as: its enterprise and code, as its topic names them. */
export const deviceUser = (enterpriseId: number, code: string) => `${enterpriseId}/${code}`;

/** Mosquitto's own iterations (mosquitto_passwd 2.0). */
const MOSQUITTO_ITERATIONS = 101;

/** A password as Mosquitto's password file keeps it: `$7$<iterations>$<salt>$<PBKDF2-SHA512>`, base64, as mosquitto_passwd writes it. */
export function mosquittoHash(password: string) {
  const salt = randomBytes(12);
  return `$7$${MOSQUITTO_ITERATIONS}$${salt.toString('base64')}$${pbkdf2Sync(password, salt, MOSQUITTO_ITERATIONS, 64, 'sha512').toString('base64')}`;
}

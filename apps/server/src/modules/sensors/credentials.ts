import { createHash } from 'node:crypto';

/** The server's own session on the embedded broker (its password is new at every start). */
export const INGEST_USER = 'console-ingest';

/** A device's password is a random 144-bit secret: a fast hash keeps it safe at rest. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The MQTT user name a device connects as: its enterprise and code, as its topic names them. */
export const deviceUser = (enterpriseId: number, code: string) => `${enterpriseId}/${code}`;

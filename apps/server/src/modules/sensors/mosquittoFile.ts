import { readFile, rename, writeFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from '../../db/client.ts';
import { deviceUser, mosquittoHash } from './credentials.ts';

/**
 * Keeps Mosquitto's password file in step with the devices' credentials (MOSQUITTO_PASSWORD_FILE):
 * the whole file written again from the database (each device holding credentials, and the
 * server's own user) and swapped in by a rename, then Mosquitto told to read it again (SIGHUP to
 * the pid in MOSQUITTO_PID_FILE). Every server of a console writes the same file from the same
 * rows, so whichever made the change, the file ends alike. The ACL needs no writing: one line,
 * `pattern write sensors/%u`, lets each device publish to its own topic only (README).
 */
export class MosquittoPasswords {
  /** The server's own user, hashed once per start (a new salt each start is harmless). */
  private readonly ingestLine: string | null;

  constructor(
    private readonly db: Db,
    private readonly file: string,
    private readonly pidFile: string | undefined,
    ingest: { username: string; password: string } | null,
    private readonly log: FastifyBaseLogger,
  ) {
    this.ingestLine = ingest ? `${ingest.username}:${mosquittoHash(ingest.password)}` : null;
  }

  async write() {
    const rows = await queryRows<{ enterpriseId: number; code: string; hash: string }>(
      this.db,
      sql`select enterprise_id as "enterpriseId", code, broker_hash as hash from sensor_devices where broker_hash is not null and credential_hash is not null order by enterprise_id, code`,
    );
    const lines = [...(this.ingestLine ? [this.ingestLine] : []), ...rows.map((r) => `${deviceUser(r.enterpriseId, r.code)}:${r.hash}`)];
    const staged = `${this.file}.${process.pid}.tmp`;
    await writeFile(staged, `${lines.join('\n')}\n`, { mode: 0o640 });
    await rename(staged, this.file);
    if (!this.pidFile) return;
    try {
      const pid = Number((await readFile(this.pidFile, 'utf8')).trim());
      if (Number.isInteger(pid) && pid > 1) process.kill(pid, 'SIGHUP');
    } catch (error) {
      this.log.warn({ err: error }, 'Mosquitto could not be told to read its password file again');
    }
  }
}

import { readFile, rename, writeFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from '../../db/client.ts';
import { deviceUser, mosquittoHash } from './credentials.ts';

/** The sensors' advisory locks share a first key (the ingest's leaving a share is 0). */
const SENSOR_LOCKS = 0x5e75;
const PASSWORD_FILE_LOCK = 1;
/** A failed write is tried again after this long, doubling up to the most. */
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 60_000;

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

  private retry: NodeJS.Timeout | null = null;
  private retryMs = RETRY_MIN_MS;
  private closed = false;

  /**
   * Writes the file; when that fails (a full disk, a file the broker's host holds) the change stays
   * in the database, the caller's answer stands (a password shown once is never lost to an error),
   * and the file is written again from the database until it takes. Answers whether it was written.
   */
  async sync(): Promise<boolean> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    try {
      await this.write();
      this.retryMs = RETRY_MIN_MS;
      return true;
    } catch (error) {
      if (this.closed) return false;
      this.log.error({ err: error, retryInMs: this.retryMs }, 'writing Mosquitto\'s password file failed; trying again');
      this.retry = setTimeout(() => void this.sync(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      return false;
    }
  }

  close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
  }

  /**
   * Reads the rows and swaps the file in under an advisory lock: writes (of this server and the
   * others) go one at a time, so a write that read the rows before a change never lands after the
   * one that read them after it.
   */
  private async write() {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SENSOR_LOCKS}, ${PASSWORD_FILE_LOCK})`);
      const rows = await queryRows<{ enterpriseId: number; code: string; hash: string }>(
        tx as unknown as Db,
        sql`select enterprise_id as "enterpriseId", code, broker_hash as hash from sensor_devices where broker_hash is not null and credential_hash is not null order by enterprise_id, code`,
      );
      const lines = [...(this.ingestLine ? [this.ingestLine] : []), ...rows.map((r) => `${deviceUser(r.enterpriseId, r.code)}:${r.hash}`)];
      const staged = `${this.file}.${process.pid}.tmp`;
      await writeFile(staged, `${lines.join('\n')}\n`, { mode: 0o640 });
      await rename(staged, this.file);
    });
    if (!this.pidFile) return;
    try {
      const pid = Number((await readFile(this.pidFile, 'utf8')).trim());
      if (Number.isInteger(pid) && pid > 1) process.kill(pid, 'SIGHUP');
    } catch (error) {
      this.log.warn({ err: error }, 'Mosquitto could not be told to read its password file again');
    }
  }
}

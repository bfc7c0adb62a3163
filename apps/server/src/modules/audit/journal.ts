import { closeSync, mkdirSync, openSync, readdirSync, unlinkSync, writeSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sqlState } from '../../db/errors.ts';
import { auditEvents, auditJournalMarks } from '../../db/schema.ts';

/**
 * The audit trail's journal: a record is appended to a file of this server's (one write call,
 * no wait for the disk, as cheap as a log line) before the write's answer leaves, and goes into
 * the table with the others of the next fraction of a second in one insert. The insert and the
 * journal line it reached are one transaction (audit_journal_marks), so a server that stopped
 * before its records reached the table stores them when it starts again, each exactly once.
 */

export type AuditRow = typeof auditEvents.$inferInsert;

/** A file holds this many records before the next one is begun (a finished file is removed once all are stored). */
const LINES_PER_FILE = 50_000;
const REPLAY_BATCH = 500;

export const JOURNAL_HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 60) || 'host';
/** host~pid~instance~sequence.jsonl: whose the file is, so only a server that has stopped is replayed. */
const FILE_NAME = /^([A-Za-z0-9._-]+)~(\d+)~([0-9a-f]+)~(\d+)\.jsonl$/;

export class JournalFile {
  /** Records appended, and of those the ones stored in the table (both count from 1). */
  appended = 0;
  stored = 0;
  private fd: number | null;

  constructor(
    readonly name: string,
    private readonly path: string,
  ) {
    this.fd = openSync(path, 'a');
  }

  append(line: string): number {
    writeSync(this.fd!, `${line}\n`);
    return ++this.appended;
  }

  close() {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  remove() {
    this.close();
    unlinkSync(this.path);
  }
}

/** Where one record waits: its file and line. */
export interface JournalPlace {
  file: JournalFile;
  line: number;
}

/** The table's columns a record fills (all but the key), by the schema's names: never a request's. */
const COLUMNS = Object.entries(getTableColumns(auditEvents)).filter(([field]) => field !== 'id');
const COLUMN_LIST = sql.raw(COLUMNS.map(([, column]) => `"${column.name}"`).join(', '));

/** A record as one journal line: JSON keyed by column names, the form the insert reads too. */
export function auditLine(row: AuditRow): string {
  const values: Record<string, unknown> = {};
  for (const [field, column] of COLUMNS) values[column.name] = row[field as keyof AuditRow] ?? null;
  // PostgreSQL's text and jsonb hold no U+0000 (22P05): wherever hostile input put one (a field's
  // name, a user agent, a tried user name), it is kept as U+FFFD. An escaped backslash before
  // "u0000" is text, not the character, and stays.
  return JSON.stringify(values).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

/**
 * Inserts records (journal lines) and notes the journal lines they reach, in one statement (so
 * at once, and one round trip). The lines go as one JSON array read by json_populate_recordset:
 * a third of the cost of binding each field of each row as a parameter, and they are not
 * serialised again.
 */
export async function storeRecords(db: Db, lines: string[], reached: Map<JournalFile | string, number>) {
  const insert = sql`insert into audit_events (${COLUMN_LIST}) select ${COLUMN_LIST} from json_populate_recordset(null::audit_events, ${`[${lines.join(',')}]`}::json)`;
  if (!reached.size) return void (await db.execute(insert));
  const marks = sql.join([...reached].map(([file, line]) => sql`(${typeof file === 'string' ? file : file.name}, ${line}::int)`), sql`, `);
  await db.execute(sql`with stored as (${insert}) insert into audit_journal_marks (file, line) values ${marks}
    on conflict (file) do update set line = greatest(audit_journal_marks.line, excluded.line)`);
}

/** An error of the record itself (bad data, a constraint): storing it again would fail again. */
export const refusesTheRecord = (error: unknown) => /^2[23]/.test(sqlState(error) ?? '');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A whole line of the journal (the last line of a server that stopped while writing it is cut: its answer never left). */
const isWholeLine = (line: string) => {
  try {
    const value: unknown = JSON.parse(line);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
};

export class AuditJournal {
  /** The file records are appended to, begun with the first. */
  private current: JournalFile | null = null;
  private sequence = 0;
  private readonly instance = randomBytes(4).toString('hex');
  /** Files begun before the current one, removed once all their records are stored. */
  private finished = new Set<JournalFile>();

  private constructor(
    private readonly db: Db,
    private readonly dir: string,
  ) {}

  /** The journal of this server in `dir`, after storing what servers of this host that stopped left there. */
  static async open(db: Db, dir: string): Promise<AuditJournal> {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      const owner = FILE_NAME.exec(name);
      if (!owner || owner[1] !== JOURNAL_HOST || alive(Number(owner[2]))) continue;
      await replay(db, dir, name);
    }
    return new AuditJournal(db, dir);
  }

  private begin() {
    const name = `${JOURNAL_HOST}~${process.pid}~${this.instance}~${++this.sequence}.jsonl`;
    return new JournalFile(name, join(this.dir, name));
  }

  append(line: string): JournalPlace {
    if (this.current && this.current.appended >= LINES_PER_FILE) {
      this.finished.add(this.current);
      this.current.close();
      this.current = null;
    }
    this.current ??= this.begin();
    return { file: this.current, line: this.current.append(line) };
  }

  /** After an insert: files finished and fully stored are removed with their mark. */
  async stored(reached: Map<JournalFile, number>) {
    for (const [file, line] of reached) file.stored = Math.max(file.stored, line);
    for (const file of this.finished) {
      if (file.stored < file.appended) continue;
      this.finished.delete(file);
      file.remove();
      await this.db.delete(auditJournalMarks).where(eq(auditJournalMarks.file, file.name));
    }
  }

  close() {
    this.current?.close();
  }
}

/** Stores the records of a stopped server's file past its mark, then removes the file and the mark. */
async function replay(db: Db, dir: string, name: string) {
  const [mark] = await db.select({ line: auditJournalMarks.line }).from(auditJournalMarks).where(eq(auditJournalMarks.file, name));
  let line = 0;
  let lines: string[] = [];
  const store = async () => {
    try {
      if (lines.length) await storeRecords(db, lines, new Map([[name, line]]));
    } catch (error) {
      if (!refusesTheRecord(error)) throw error;
      // A record the database refuses (it was refused when first stored too): the others alone.
      for (const one of lines) await storeRecords(db, [one], new Map()).catch((alone) => (refusesTheRecord(alone) ? undefined : Promise.reject(alone)));
    }
    lines = [];
  };
  const reader = createInterface({ input: createReadStream(join(dir, name)), crlfDelay: Infinity });
  for await (const text of reader) {
    line++;
    if (line <= (mark?.line ?? 0)) continue;
    if (isWholeLine(text)) lines.push(text);
    if (lines.length >= REPLAY_BATCH) await store();
  }
  await store();
  unlinkSync(join(dir, name));
  await db.delete(auditJournalMarks).where(eq(auditJournalMarks.file, name));
}

import type { Writable } from 'node:stream';
import type { Db } from './client.ts';

/** One value as a CSV field for COPY: null is an empty unquoted field, text is quoted. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // Most values hold no quote: a scan is cheaper than a replace (a long array literal is one field).
  return text.includes('"') ? `"${text.replaceAll('"', '""')}"` : `"${text}"`;
}

/** One row's values as a CSV line for COPY, newline included. */
export const copyLine = (values: unknown[]) => `${values.map(copyField).join(',')}\n`;

/** Rows streamed into a table by COPY: `write` each row's values in `columns` order, then `end`. */
export interface CopyWriter {
  write(values: unknown[]): Promise<void>;
  /** Rows already made into lines by copyLine (in a worker thread, say). */
  writeLines(lines: string): Promise<void>;
  end(): Promise<void>;
  /** Stops early (the import failed): what was sent is dropped by the caller. */
  abort(): Promise<void>;
}

/** The text PGlite takes in one COPY (it reads the whole blob at once): some 20,000 short rows. */
const PGLITE_COPY_BYTES = 4 * 1024 * 1024;

/**
 * A COPY ... FROM of CSV rows into `table` (names from our schema, never from a request): on a
 * PostgreSQL server one COPY FROM STDIN streamed over a connection of its own (the rows go as they
 * are made, with backpressure); on PGlite one COPY from a blob per PGLITE_COPY_BYTES of rows. Several
 * times faster than INSERTs for the million rows of a big import.
 */
export async function copyInto(db: Db, table: string, columns: string[]): Promise<CopyWriter> {
  const statement = `copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from stdin with (format csv)`;
  const client = (db as unknown as { $client: object }).$client;
  if (!('waitReady' in client)) {
    const { from } = await import('pg-copy-streams');
    const connection = await (client as import('pg').Pool).connect();
    let stream: Writable;
    try {
      stream = connection.query(from(statement));
    } catch (error) {
      connection.release();
      throw error;
    }
    let failure: Error | null = null;
    stream.on('error', (error) => (failure = error));
    const finished = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
    });
    finished.catch(() => {});
    // Rows go out in blocks of about 64 KB: one COPY message per row would cost more than the row.
    let block = '';
    const writeLines = async (lines: string) => {
      if (failure) throw failure;
      block += lines;
      if (block.length >= 65_536) await send();
    };
    const send = async () => {
      const text = block;
      block = '';
      if (!stream.write(text)) {
        await new Promise<void>((resolve, reject) => {
          stream.once('drain', resolve);
          stream.once('error', reject);
        });
      }
    };
    return {
      write: (values) => writeLines(copyLine(values)),
      writeLines,
      async end() {
        if (block) await send();
        stream.end();
        try {
          await finished;
        } finally {
          connection.release();
        }
      },
      async abort() {
        stream.destroy(new Error('copy aborted'));
        connection.release(true);
      },
    };
  }
  const pglite = client as import('@electric-sql/pglite').PGlite;
  const blobStatement = statement.replace('from stdin', "from '/dev/blob'");
  let parts: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!parts.length) return;
    const blob = new Blob(parts);
    parts = [];
    size = 0;
    await pglite.query(blobStatement, [], { blob });
  };
  const writeLines = async (lines: string) => {
    parts.push(lines);
    size += lines.length;
    if (size >= PGLITE_COPY_BYTES) await flush();
  };
  return {
    write: (values) => writeLines(copyLine(values)),
    writeLines,
    end: flush,
    async abort() {
      parts = [];
    },
  };
}

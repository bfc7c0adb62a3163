import { once } from 'node:events';
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

/** A COPY FROM STDIN open on a connection of its own (PostgreSQL server) or sent as blobs (PGlite). */
interface CopyChannel {
  send(chunk: string | Uint8Array): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

/** One COPY FROM STDIN streamed over a PostgreSQL connection (chunks go as they come, with backpressure). */
async function copyOnConnection(connection: import('pg').PoolClient, statement: string, frame?: { head: Uint8Array; tail: Uint8Array }): Promise<CopyChannel> {
  const { from } = await import('pg-copy-streams');
  const stream: Writable = connection.query(from(statement));
  let failure: Error | null = null;
  stream.on('error', (error) => (failure = error));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  finished.catch(() => {});
  const send = async (chunk: string | Uint8Array) => {
    if (failure) throw failure;
    // once() rejects on an error and leaves no listener behind either way.
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  if (frame) await send(frame.head);
  return {
    send,
    async end() {
      if (frame) await send(frame.tail);
      stream.end();
      await finished;
    },
    async abort() {
      stream.destroy(new Error('copy aborted'));
    },
  };
}

/**
 * On a PostgreSQL server one COPY FROM STDIN streamed over a connection of its own (chunks go as
 * they come, with backpressure); on PGlite, which reads a whole blob at once, one COPY from a
 * blob per `pgliteBytes` of chunks. `frame` opens and closes every COPY's data (binary format).
 */
async function openCopy(db: Db, statement: string, pgliteBytes: number, frame?: { head: Uint8Array; tail: Uint8Array }): Promise<CopyChannel> {
  const client = (db as unknown as { $client: object }).$client;
  if (!('waitReady' in client)) {
    const connection = await (client as import('pg').Pool).connect();
    try {
      const channel = await copyOnConnection(connection, statement, frame);
      return {
        send: channel.send,
        async end() {
          try {
            await channel.end();
          } finally {
            connection.release();
          }
        },
        async abort() {
          await channel.abort();
          connection.release(true);
        },
      };
    } catch (error) {
      connection.release();
      throw error;
    }
  }
  const pglite = client as import('@electric-sql/pglite').PGlite;
  const blobStatement = statement.replace('from stdin', "from '/dev/blob'");
  let parts: (string | Uint8Array)[] = [];
  let size = 0;
  const flush = async () => {
    if (!parts.length) return;
    const blob = new Blob((frame ? [frame.head, ...parts, frame.tail] : parts) as BlobPart[]);
    parts = [];
    size = 0;
    await pglite.query(blobStatement, [], { blob });
  };
  return {
    async send(chunk) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= pgliteBytes) await flush();
    },
    end: flush,
    async abort() {
      parts = [];
    },
  };
}

/**
 * A COPY ... FROM of CSV rows into `table` (names from our schema, never from a request). Several
 * times faster than INSERTs for the million rows of a big import.
 */
export async function copyInto(db: Db, table: string, columns: string[]): Promise<CopyWriter> {
  const channel = await openCopy(db, `copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from stdin with (format csv)`, PGLITE_COPY_BYTES);
  // Rows go out in blocks of about 64 KB: one COPY message per row would cost more than the row.
  let block = '';
  const writeLines = async (lines: string) => {
    block += lines;
    if (block.length >= 65_536) {
      const text = block;
      block = '';
      await channel.send(text);
    }
  };
  return {
    write: (values) => writeLines(copyLine(values)),
    writeLines,
    async end() {
      if (block) await channel.send(block);
      await channel.end();
    },
    abort: () => channel.abort(),
  };
}

/** Rows already encoded by BinaryRows, streamed into a table by a binary COPY. */
export interface BinaryCopyWriter {
  writeRows(bytes: Uint8Array): Promise<void>;
  end(): Promise<void>;
  /** Stops early (the import failed): what was sent is dropped by the caller. */
  abort(): Promise<void>;
}

const BINARY_HEAD = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const BINARY_TAIL = Buffer.from([0xff, 0xff]);

/**
 * A COPY ... FROM in PostgreSQL's binary format: numbers and arrays go as their bytes, which the
 * database takes without parsing text (a settlement point's hundred displacements, say).
 */
export async function copyBinaryInto(db: Db, table: string, columns: readonly string[]): Promise<BinaryCopyWriter> {
  const statement = `copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from stdin with (format binary)`;
  const channel = await openCopy(db, statement, 2 * PGLITE_COPY_BYTES, { head: BINARY_HEAD, tail: BINARY_TAIL });
  return { writeRows: (bytes) => channel.send(bytes), end: () => channel.end(), abort: () => channel.abort() };
}

/**
 * Rows in PostgreSQL's binary COPY format, written into one growing buffer: each row its field
 * count, then each field's length (-1 for null) and bytes, big-endian.
 */
export class BinaryRows {
  private buffer = Buffer.allocUnsafe(1 << 16);
  private offset = 0;

  private room(bytes: number) {
    if (this.offset + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(larger, 0, 0, this.offset);
    this.buffer = larger;
  }

  row(fields: number) {
    this.room(2);
    this.offset = this.buffer.writeInt16BE(fields, this.offset);
  }

  nothing() {
    this.room(4);
    this.offset = this.buffer.writeInt32BE(-1, this.offset);
  }

  int4(value: number) {
    this.room(8);
    this.offset = this.buffer.writeInt32BE(value, this.buffer.writeInt32BE(4, this.offset));
  }

  float4(value: number | null) {
    if (value === null) return this.nothing();
    this.room(8);
    this.offset = this.buffer.writeFloatBE(value, this.buffer.writeInt32BE(4, this.offset));
  }

  float8(value: number | null) {
    if (value === null) return this.nothing();
    this.room(12);
    this.offset = this.buffer.writeDoubleBE(value, this.buffer.writeInt32BE(8, this.offset));
  }

  text(value: string) {
    const bytes = Buffer.byteLength(value);
    this.room(4 + bytes);
    this.offset = this.buffer.writeInt32BE(bytes, this.offset);
    this.offset += this.buffer.write(value, this.offset, 'utf8');
  }

  /** jsonb: its format version (1), then the JSON text. */
  jsonb(json: string) {
    const bytes = Buffer.byteLength(json);
    this.room(5 + bytes);
    this.offset = this.buffer.writeInt32BE(bytes + 1, this.offset);
    this.buffer[this.offset++] = 1;
    this.offset += this.buffer.write(json, this.offset, 'utf8');
  }

  bytea(value: Uint8Array) {
    this.room(4 + value.byteLength);
    this.offset = this.buffer.writeInt32BE(value.byteLength, this.offset);
    this.buffer.set(value, this.offset);
    this.offset += value.byteLength;
  }

  /** A one-dimensional int4[] of `count` values; where `gaps[i]` is 1 the element is null. */
  int4Array(values: Int32Array, gaps: Uint8Array, count: number) {
    let nulls = 0;
    for (let i = 0; i < count; i++) nulls += gaps[i];
    const size = 20 + count * 4 + (count - nulls) * 4;
    this.room(4 + size);
    const b = this.buffer;
    let o = b.writeInt32BE(size, this.offset);
    o = b.writeInt32BE(1, o); // dimensions
    o = b.writeInt32BE(nulls ? 1 : 0, o);
    o = b.writeInt32BE(23, o); // int4
    o = b.writeInt32BE(count, o);
    o = b.writeInt32BE(1, o); // lower bound
    for (let i = 0; i < count; i++) o = gaps[i] ? b.writeInt32BE(-1, o) : b.writeInt32BE(values[i], b.writeInt32BE(4, o));
    this.offset = o;
  }

  get length() {
    return this.offset;
  }

  /** The rows written so far, as bytes of their own (the buffer is reused for the next rows). */
  take(): Uint8Array {
    const bytes = Uint8Array.prototype.slice.call(this.buffer, 0, this.offset);
    this.offset = 0;
    return bytes;
  }
}

/** Whether the database is a PostgreSQL server (connections of its own can be held), not PGlite. */
export const isServerDatabase = (db: Db) => !('waitReady' in (db as unknown as { $client: object }).$client);

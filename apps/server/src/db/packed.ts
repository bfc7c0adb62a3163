/**
 * Rows packed into one bytea by SQL and read back in Node: a query that would return hundreds of
 * rows (a tile's pipes) returns one value, each row's fields as bytes one after the other, with no
 * per-row protocol message, text parse or row object. The SQL helpers and the reader agree on
 * each field's form (big-endian).
 */
import { sql, type SQL } from 'drizzle-orm';

/** SQL: a text value as a 4-byte length (-1: null) and its UTF-8 bytes. */
export const textBytes = (value: SQL) => sql`coalesce(int4send(octet_length(${value})) || convert_to(${value}, 'UTF8'), '\\xffffffff'::bytea)`;
/** SQL: a whole number (-1: null; the numbers sent this way are never negative). */
export const intBytes = (value: SQL) => sql`int4send(coalesce(${value}, -1))`;
/** SQL: bytes after their 4-byte length. */
export const withLength = (value: SQL) => sql`int4send(length(${value})) || ${value}`;

/** Reads the rows a tile query packed into one bytea (one value back instead of a row per pipe). */
export class PackedRows {
  private readonly view: DataView;
  private readonly text: Buffer;
  offset = 0;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done() {
    return this.offset >= this.bytes.byteLength;
  }

  int(): number | null {
    const value = this.view.getInt32(this.offset);
    this.offset += 4;
    return value === -1 ? null : value;
  }

  bigint(): number {
    const value = this.view.getUint32(this.offset) * 2 ** 32 + this.view.getUint32(this.offset + 4);
    this.offset += 8;
    return value;
  }

  string(): string | null {
    const length = this.int();
    if (length === null) return null;
    const value = this.text.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Where the next length-prefixed bytes are, skipped over. */
  span(): [number, number] {
    const length = this.int()!;
    const start = this.offset;
    this.offset += length;
    return [start, length];
  }
}

/** The one bytea a packed query returns (null when no row matched). */
export const packedBytes = (result: unknown): Uint8Array => (result as { rows: { rows: Uint8Array | null }[] }).rows[0]?.rows ?? new Uint8Array(0);

/**
 * Rows packed into one bytea by SQL and read back in Node: a query that would return hundreds of
 * rows (a tile's pipes) returns one value, each row's fields as bytes one after the other, with no
 * per-row protocol message, text parse or row object. The SQL helpers that pack them
 * (db/packedSql.ts) and the reader here agree on each field's form (big-endian).
 */
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { isServerDatabase } from './copy.ts';

/** Texts up to this many bytes are made into strings once per reader. */
const SHORT_TEXT = 24;

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number) {
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}

/** Reads the rows a tile query packed into one bytea (one value back instead of a row per pipe). */
export class PackedRows {
  private readonly view: DataView;
  private readonly text: Buffer;
  private readonly shortTexts = new Map<number, { value: string; bytes: Uint8Array }>();
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
    const start = this.offset;
    this.offset += length;
    if (length > SHORT_TEXT) return this.text.toString('utf8', start, start + length);
    // Short texts repeat (a network type, a material): each is made once, found by its bytes.
    let hash = length;
    for (let i = start; i < start + length; i++) hash = (Math.imul(hash, 31) + this.bytes[i]) | 0;
    const known = this.shortTexts.get(hash);
    if (known !== undefined && known.bytes.length === length && sameBytes(known.bytes, this.bytes, start)) return known.value;
    const value = this.text.toString('utf8', start, start + length);
    this.shortTexts.set(hash, { value, bytes: this.bytes.slice(start, start + length) });
    return value;
  }

  /** Where the next length-prefixed value's bytes start and how many there are, skipped over ([-1, 0] for null). */
  span(): [number, number] {
    const length = this.int();
    if (length === null) return [-1, 0];
    const start = this.offset;
    this.offset += length;
    return [start, length];
  }
}

/** The one bytea a packed query returns, in its column "rows" (null when no row matched). */
export const packedBytes = (result: unknown): Uint8Array => (result as { rows: { rows: Uint8Array | null }[] }).rows[0]?.rows ?? new Uint8Array(0);

/**
 * A read that returns one packed bytea, its SQL made once with named placeholders. On a
 * PostgreSQL server it runs as a named prepared statement, parsed and planned once per connection
 * (planning a tile's query took as long as running it); its plan is then a generic one, so its
 * conditions must not tempt the planner into an index that is only good for some values. PGlite
 * runs the same text with its values.
 */
export class PackedQuery<Name extends string> {
  private readonly text: string;
  private readonly params: unknown[];

  constructor(
    private readonly name: string,
    query: SQL,
  ) {
    const compiled = new PgDialect().sqlToQuery(query);
    this.text = compiled.sql;
    this.params = compiled.params;
  }

  async run(db: Db, values: Record<Name, unknown>): Promise<Uint8Array> {
    const params = fillPlaceholders(this.params, values);
    const client = (db as unknown as { $client: object }).$client;
    const result = isServerDatabase(db)
      ? await (client as import('pg').Pool).query({ name: this.name, text: this.text, values: params })
      : await (client as import('@electric-sql/pglite').PGlite).query(this.text, params);
    return packedBytes(result);
  }
}

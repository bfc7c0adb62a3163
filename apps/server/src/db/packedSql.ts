/**
 * SQL that packs a row's fields into bytes, as db/packed.ts reads them back (big-endian). Apart
 * from the reader: the schema's generated columns use these, and the schema sits below the
 * database client that the reader's queries need.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';

/**
 * SQL: a text value as a 4-byte length (-1: null) and its UTF-8 bytes, by immutable functions only
 * (a generated column may use no other): the text with its backslashes doubled, decoded as
 * bytea's escape format, is its bytes in the database's encoding (UTF-8).
 */
export const textBytes = (value: SQLWrapper) => sql`coalesce(int4send(octet_length(${value})) || decode(replace(${value}, '\\', '\\\\'), 'escape'), '\\xffffffff'::bytea)`;
/** SQL: a whole number (-1: null; the numbers sent this way are never negative). */
export const intBytes = (value: SQLWrapper) => sql`int4send(coalesce(${value}, -1))`;
/** SQL: bytes after their 4-byte length. */
export const withLength = (value: SQLWrapper) => sql`int4send(length(${value})) || ${value}`;

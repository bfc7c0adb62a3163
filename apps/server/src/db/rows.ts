import { getTableColumns, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A row the database gave as JSON (`row_to_json`, keyed by column names) as Drizzle gives a row
 * (keyed by the schema's field names). Timestamps stay the strings JSON has.
 */
export function rowOfJson<T extends PgTable>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([field, column]) => [field, json[column.name] ?? null])) as InferSelectModel<T>;
}

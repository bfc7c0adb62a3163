import { ilike, like, type Column, type SQL } from 'drizzle-orm';

/** A LIKE pattern that finds `text` anywhere, its own %, _ and \ taken literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * SQL: `column` holds `text` anywhere, in any case. A text without letters that have a case
 * (digits, Chinese) is compared by LIKE: the same rows, without folding the case of every value
 * read (counting the pipe ids holding "12" among a million: 4x faster).
 */
export function containsText(column: Column | SQL, text: string): SQL {
  return text.toLowerCase() === text.toUpperCase() ? like(column, likePattern(text)) : ilike(column, likePattern(text));
}

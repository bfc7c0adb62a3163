/** The columns of a kept upload (a photo, a plan): what it is, where it lies and who sent it. */
import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const keptFileColumns = () => ({
  fileName: text('file_name').notNull(),
  mimetype: text('mimetype').notNull(),
  size: integer('size').notNull(),
  /** Relative to DATA_DIR. */
  path: text('path').notNull(),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});

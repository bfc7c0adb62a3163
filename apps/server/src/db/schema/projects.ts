/** Monitoring projects (campaigns over an area of a network). */
import { date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { type StoredGeometry, bbox, createdAt } from './common.ts';
import { users } from './users.ts';
import { enterprises } from './enterprises.ts';

/** A monitoring campaign over an area of an enterprise's network. */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    city: text('city').notNull(),
    district: text('district'),
    area: jsonb('area').$type<StoredGeometry>().notNull(),
    ...bbox(),
    networkTypes: jsonb('network_types').$type<string[]>().notNull(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    status: text('status', { enum: ['planned', 'active', 'closed'] }).notNull().default('planned'),
    description: text('description'),
    /** Pipe length in the area by network type, kept between changes (see projects/service.ts). */
    pipeLengthM: jsonb('pipe_length_m').$type<Record<string, number>>(),
    /** The enterprise's pipes version the length was measured at; null after the area changed. */
    pipeLengthVersion: integer('pipe_length_version'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('projects_enterprise_code_idx').on(t.enterpriseId, t.code), index('projects_enterprise_idx').on(t.enterpriseId)],
);

/** Where incidents are announced (group robots, e-mail) and every message sent there, with its outcome. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { ChannelEvent, ChannelKind, RiskLevel, SendState } from '@console/contract';
import { incidents } from './alerts.ts';
import { enterprises } from './enterprises.ts';

export const notifyChannels = pgTable(
  'notify_channels',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ChannelKind>().notNull(),
    name: text('name').notNull(),
    webhook: text('webhook'),
    /** DingTalk's signing secret: used to sign, never sent back to a console. */
    secret: text('secret'),
    recipients: text('recipients').array().notNull().default([]),
    /** The incident levels it announces. */
    levels: text('levels').$type<RiskLevel>().array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Whether it is sent the monthly risk report when one is made. */
    reports: boolean('reports').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notify_channels_enterprise_idx').on(t.enterpriseId)],
);

/** One message to one channel: written with the step or check that caused it, sent after, retried with backoff. */
export const channelSends = pgTable(
  'channel_sends',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => notifyChannels.id, { onDelete: 'cascade' }),
    incidentId: integer('incident_id').references(() => incidents.id, { onDelete: 'cascade' }),
    event: text('event').$type<ChannelEvent | 'test' | 'report'>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    state: text('state').$type<SendState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('channel_sends_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`),
    index('channel_sends_channel_idx').on(t.enterpriseId, t.channelId, t.createdAt),
  ],
);

import { and, desc, eq, sql } from 'drizzle-orm';
import type { ChannelInput, ChannelRow, ChannelSend } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { channelSends, notifyChannels } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { incidentCode } from '../alerts/grouping.ts';
import { allowedWebhook } from './outbox.ts';

/** Where this server may send: the robots' hosts, and whether it has a mail server. */
export interface ChannelLimits {
  robotHosts: string[];
  smtp: boolean;
}

/** A channel is refused when the server could not send to it: a robot off its hosts, mail without SMTP. */
function checkReachable(input: ChannelInput, limits: ChannelLimits) {
  if (input.kind === 'email' && !limits.smtp) throw new AppError(400, 'channels.noSmtp');
  if (input.kind !== 'email' && input.webhook && !allowedWebhook(input.webhook, limits.robotHosts)) throw new AppError(400, 'channels.host', { hosts: limits.robotHosts.join(', ') });
}

/** A webhook as the list shows it: its query's values (the robot's token) cut to their last 4 characters. */
export function maskedWebhook(webhook: string) {
  const url = new URL(webhook);
  for (const [key, value] of [...url.searchParams]) url.searchParams.set(key, `…${value.slice(-4)}`);
  return decodeURIComponent(url.toString());
}

/** What is kept of the input: a robot has no recipients, mail no webhook; a secret is DingTalk's. */
const columnsOf = (input: ChannelInput) => ({
  kind: input.kind,
  name: input.name,
  ...(input.kind === 'email' ? { webhook: null } : input.webhook ? { webhook: input.webhook } : {}),
  recipients: input.kind === 'email' ? input.recipients : [],
  levels: [...new Set(input.levels)],
  enabled: input.enabled,
  reports: input.reports,
});

export async function listChannels(db: Db, enterpriseId: number): Promise<ChannelRow[]> {
  const rows = await queryRows<{ id: number; kind: ChannelRow['kind']; name: string; webhook: string | null; has_secret: boolean; recipients: string[]; levels: ChannelRow['levels']; enabled: boolean; reports: boolean; last_state: ChannelRow['lastSend'] extends infer S ? S extends { state: infer T } ? T : never : never; last_at: Date | string | null; last_error: string | null }>(
    db,
    sql`select c.id, c.kind, c.name, c.webhook, c.secret is not null as has_secret, c.recipients, c.levels, c.enabled, c.reports, l.state as last_state, l.created_at as last_at, l.last_error
        from ${notifyChannels} c
        left join lateral (select state, created_at, last_error from ${channelSends} s where s.channel_id = c.id order by s.id desc limit 1) l on true
        where c.enterprise_id = ${enterpriseId} order by c.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    webhook: r.webhook && maskedWebhook(r.webhook),
    hasSecret: r.has_secret,
    recipients: r.recipients,
    levels: r.levels,
    enabled: r.enabled,
    reports: r.reports,
    lastSend: r.last_state ? { state: r.last_state, at: new Date(r.last_at!).toISOString(), error: r.last_error } : null,
  }));
}

export async function createChannel(db: Db, enterpriseId: number, input: ChannelInput, limits: ChannelLimits) {
  checkReachable(input, limits);
  const [row] = await db
    .insert(notifyChannels)
    .values({ enterpriseId, ...columnsOf(input), secret: input.kind === 'dingtalk' ? (input.secret ?? null) : null })
    .returning({ id: notifyChannels.id });
  return row.id;
}

/** Saves a channel; an empty webhook or secret keeps the one it has (the console never sees them to send them back). */
export async function updateChannel(db: Db, enterpriseId: number, id: number, input: ChannelInput, limits: ChannelLimits) {
  checkReachable(input, limits);
  if (input.kind !== 'email' && !input.webhook) {
    // Kept only from a robot of the same kind: a new kind of robot needs its own address.
    const [kept] = await db.select({ kind: notifyChannels.kind, webhook: notifyChannels.webhook }).from(notifyChannels).where(and(eq(notifyChannels.id, id), eq(notifyChannels.enterpriseId, enterpriseId)));
    if (!kept) throw notFound('notFound.channel');
    if (kept.kind !== input.kind || !kept.webhook) throw new AppError(400, 'channels.webhookRequired');
  }
  const secret = input.kind !== 'dingtalk' ? { secret: null } : input.secret ? { secret: input.secret } : {};
  const updated = await db
    .update(notifyChannels)
    .set({ ...columnsOf(input), ...secret })
    .where(and(eq(notifyChannels.id, id), eq(notifyChannels.enterpriseId, enterpriseId)))
    .returning({ id: notifyChannels.id });
  if (!updated.length) throw notFound('notFound.channel');
}

export async function deleteChannel(db: Db, enterpriseId: number, id: number) {
  const deleted = await db.delete(notifyChannels).where(and(eq(notifyChannels.id, id), eq(notifyChannels.enterpriseId, enterpriseId))).returning({ id: notifyChannels.id });
  if (!deleted.length) throw notFound('notFound.channel');
}

/** A channel of the enterprise exists (before a test send). */
export async function assertChannel(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select({ id: notifyChannels.id }).from(notifyChannels).where(and(eq(notifyChannels.id, id), eq(notifyChannels.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.channel');
}

/** The latest sends of the enterprise (or of one send), newest first, with their outcome. */
export async function listSends(db: Db, enterpriseId: number, options: { id?: number; limit?: number } = {}): Promise<ChannelSend[]> {
  const rows = await db
    .select({
      id: channelSends.id,
      channelId: channelSends.channelId,
      channelName: notifyChannels.name,
      kind: notifyChannels.kind,
      incidentId: channelSends.incidentId,
      event: channelSends.event,
      state: channelSends.state,
      attempts: channelSends.attempts,
      lastError: channelSends.lastError,
      createdAt: channelSends.createdAt,
      sentAt: channelSends.sentAt,
    })
    .from(channelSends)
    .innerJoin(notifyChannels, eq(notifyChannels.id, channelSends.channelId))
    .where(and(eq(channelSends.enterpriseId, enterpriseId), options.id ? eq(channelSends.id, options.id) : undefined))
    .orderBy(desc(channelSends.id))
    .limit(options.limit ?? 50);
  return rows.map((r) => ({ ...r, incidentCode: r.incidentId ? incidentCode(r.incidentId) : null, createdAt: r.createdAt.toISOString(), sentAt: r.sentAt?.toISOString() ?? null }));
}

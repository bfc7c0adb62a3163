import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { throttles } from '../db/schema.ts';

/** At most `limit` attempts per subject in a window of `windowMs`. */
export interface ThrottleRule {
  scope: string;
  limit: number;
  windowMs: number;
}

export const THROTTLES = {
  /** 5 sign-in failures for one username within 15 minutes lock it for 15 minutes. */
  signInByUsername: { scope: 'sign-in:username', limit: 5, windowMs: 15 * 60_000 },
  /** The same for one address, whatever usernames it tries. */
  signInByAddress: { scope: 'sign-in:address', limit: 5, windowMs: 15 * 60_000 },
  /** One SMS code per phone per minute. */
  smsByPhone: { scope: 'sms:phone', limit: 1, windowMs: 60_000 },
  /** An address may ask for 20 codes an hour, to any phones. */
  smsByAddress: { scope: 'sms:address', limit: 20, windowMs: 60 * 60_000 },
  /** One-time sign-in keys (each is a row): 120 a minute per address. */
  signInKeyByAddress: { scope: 'sign-in-key:address', limit: 120, windowMs: 60_000 },
} satisfies Record<string, ThrottleRule>;

/**
 * Counts one attempt and says whether it may go on: 0, or the seconds to wait. The check and
 * the count are one statement (an upsert that locks the row), so 60 requests sent at once are
 * counted one after the other and only `limit` of them pass. A window starts at the first
 * attempt; the attempt that reaches the limit starts it again, so a lock lasts a whole window.
 */
export async function takeAttempt(db: Db, rule: ThrottleRule, subject: string): Promise<number> {
  return (await takeAttempts(db, rule, [[rule.scope, subject]]))[0];
}

/**
 * One attempt counted against several subjects under rules of one limit and window (a sign-in
 * against its username and its address), in one statement that locks their rows in one order:
 * attempts sent at once are counted one after the other in every count alike, so exactly `limit`
 * of them pass (counted in two statements, each could be refused by one count after taking a
 * place in the other, and none pass). Seconds to wait per subject, 0 where it may go on.
 */
export async function takeAttempts(db: Db, rule: Omit<ThrottleRule, 'scope'>, subjects: [scope: string, subject: string][]): Promise<number[]> {
  const window = sql`make_interval(secs => ${rule.windowMs / 1000})`;
  const expired = sql`${throttles.windowStart} <= now() - ${window}`;
  const ordered = [...subjects].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const result = (await db.execute(sql`
    insert into ${throttles} (scope, subject, count, window_start) values ${sql.join(
      ordered.map(([scope, subject]) => sql`(${scope}, ${subject}, 1, now())`),
      sql`, `,
    )}
    on conflict (scope, subject) do update set
      count = case when ${expired} then 1 else ${throttles.count} + 1 end,
      window_start = case when ${expired} or ${throttles.count} + 1 = ${rule.limit} then now() else ${throttles.windowStart} end
    returning scope, subject, count, extract(epoch from window_start + ${window} - now())::float8 as wait`)) as unknown as {
    rows: { scope: string; subject: string; count: number; wait: number }[];
  };
  return subjects.map(([scope, subject]) => {
    const row = result.rows.find((r) => r.scope === scope && r.subject === subject)!;
    return row.count > rule.limit ? Math.max(1, Math.ceil(Number(row.wait))) : 0;
  });
}

/** Forgets the attempts of a subject (a successful sign-in clears its failures). */
export async function clearAttempts(db: Db, rule: ThrottleRule, subject: string) {
  await db.delete(throttles).where(and(eq(throttles.scope, rule.scope), eq(throttles.subject, subject)));
}

/** Drops windows long over, now and then, so the table stays as small as the traffic. */
export async function pruneThrottles(db: Db) {
  await db.delete(throttles).where(sql`${throttles.windowStart} < now() - interval '1 day'`);
}

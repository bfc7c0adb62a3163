import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { RAINSTORM_RULES, type AreaGeometry, type WarningLevel } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { weatherWarningMessages, weatherWarnings, type ImportProblemRecord, type WarningUpdate } from '../../db/schema.ts';

import { circlePolygon } from '../../geo/geometry.ts';
import { problem } from '../imports/problems.ts';
import { projectArea } from '../projects/service.ts';
import { readCap, type CapMessage } from './cap.ts';
import type { Tx } from '../../db/client.ts';
import { warningTouches } from './touches.ts';

/** A place given for warnings without a polygon or circle is warned this far around it. */
const PLACE_RADIUS_M = 10_000;

/**
 * The rain a rainstorm level stands for over a window of `hours` (its rule's amount, spread evenly
 * over a shorter window): what an official warning is expected to bring a waterlogging point.
 */
export function expectedRain(level: WarningLevel | null, hours: number) {
  const rule = RAINSTORM_RULES.find((r) => r.level === level);
  if (!rule) return 0;
  return Math.round((hours >= rule.hours ? rule.mm : (rule.mm * hours) / rule.hours) * 10) / 10;
}

const updateOf = (m: CapMessage): WarningUpdate => ({ identifier: m.identifier, msgType: m.msgType, sent: m.sent, level: m.level, expires: m.end, headline: m.headline });

/** Keeps one message: a new warning (first issue), or an update or cancellation applied to the warning it refers to. */
async function keepMessage(tx: Tx, enterpriseId: number, m: CapMessage, fallbackArea: AreaGeometry | null, count: { issued: number; updated: number; cancelled: number; known: number }) {
  const [known] = await tx.select().from(weatherWarningMessages).where(and(eq(weatherWarningMessages.enterpriseId, enterpriseId), eq(weatherWarningMessages.sender, m.sender), eq(weatherWarningMessages.identifier, m.identifier)));
  if (known) return void count.known++;
  const referred = m.references.length
    ? await tx
        .select({ warningId: weatherWarningMessages.warningId })
        .from(weatherWarningMessages)
        .where(and(eq(weatherWarningMessages.enterpriseId, enterpriseId), or(...m.references.map((r) => and(eq(weatherWarningMessages.sender, r.sender), eq(weatherWarningMessages.identifier, r.identifier))))))
    : [];
  const [first] = referred.length
    ? await tx.select().from(weatherWarnings).where(and(eq(weatherWarnings.id, referred[0].warningId), eq(weatherWarnings.enterpriseId, enterpriseId)))
    : m.msgType === 'Cancel'
      ? // A lift that names no message ends the sender's latest warning of its kind still in force.
        await tx
          .select()
          .from(weatherWarnings)
          .where(and(eq(weatherWarnings.enterpriseId, enterpriseId), eq(weatherWarnings.source, 'official'), eq(weatherWarnings.sender, m.sender), eq(weatherWarnings.type, m.type), isNull(weatherWarnings.cancelledAt)))
          .orderBy(desc(weatherWarnings.start))
          .limit(1)
      : [];
  let warningId: number;
  if (first) {
    // An update or cancellation of a warning kept: applied to it, listed under it.
    const level = m.msgType === 'Update' && m.level ? m.level : first.level;
    const area = (m.msgType === 'Update' && m.area) || (first.area as AreaGeometry);
    const cancelled = m.msgType === 'Cancel';
    await tx
      .update(weatherWarnings)
      .set({
        level,
        end: cancelled ? new Date(Math.min(first.end.getTime(), Date.parse(m.sent))) : new Date(m.end),
        cancelledAt: cancelled ? new Date(m.sent) : null,
        area,
        headline: m.headline ?? first.headline,
        description: m.description ?? first.description,
        instruction: m.instruction ?? first.instruction,
        levels: level !== first.level && level ? [...first.levels, { level, at: m.sent }] : first.levels,
        updates: [...first.updates, updateOf(m)],
        touches: cancelled ? first.touches : await warningTouches(tx, enterpriseId, first.type, area, (hours) => expectedRain(level, hours)),
      })
      .where(eq(weatherWarnings.id, first.id));
    warningId = first.id;
    count[cancelled ? 'cancelled' : 'updated']++;
  } else {
    // A first issue (or an update of one never received: it stands as the first kept).
    const area = m.area ?? fallbackArea;
    if (!area) throw new MissingArea(m.identifier);
    const [row] = await tx
      .insert(weatherWarnings)
      .values({
        enterpriseId,
        placeId: null,
        source: 'official',
        type: m.type,
        level: m.level,
        start: new Date(m.start),
        end: new Date(m.end),
        levels: m.level ? [{ level: m.level, at: m.sent }] : [],
        area,
        touches: await warningTouches(tx, enterpriseId, m.type, area, (hours) => expectedRain(m.level, hours)),
        identifier: m.identifier,
        sender: m.sender,
        senderName: m.senderName,
        event: m.event,
        headline: m.headline,
        description: m.description,
        instruction: m.instruction,
        areaDesc: m.areaDesc,
        updates: [updateOf(m)],
        cancelledAt: m.msgType === 'Cancel' ? new Date(m.sent) : null,
      })
      .returning({ id: weatherWarnings.id });
    warningId = row.id;
    count.issued++;
  }
  await tx.insert(weatherWarningMessages).values({ enterpriseId, sender: m.sender, identifier: m.identifier, warningId });
}

class MissingArea extends Error {
  constructor(readonly identifier: string) {
    super(identifier);
  }
}

/**
 * Official warnings from a CAP file, all or nothing, in the order they were sent: messages kept
 * before are passed over, updates and cancellations land on the first issue they refer to. A
 * warning without a polygon or circle covers the project (or the circle round the place) given.
 */
export async function importCap(db: Db, enterpriseId: number, input: { text: string; projectId?: number; lon?: number; lat?: number }) {
  // The project's area read (404 for another enterprise's) before the file is.
  const fallbackArea =
    (input.projectId !== undefined ? await projectArea(db, enterpriseId, input.projectId) : null) ??
    (input.lon !== undefined && input.lat !== undefined ? circlePolygon([input.lon, input.lat], PLACE_RADIUS_M) : null);
  const read = readCap(input.text);
  if ('problems' in read) return read;
  const count = { issued: 0, updated: 0, cancelled: 0, known: 0 };
  try {
    await db.transaction(async (tx) => {
      for (const m of read.messages) await keepMessage(tx, enterpriseId, m, fallbackArea, count);
    });
  } catch (error) {
    if (!(error instanceof MissingArea)) throw error;
    return { problems: [problem(null, error.identifier, 'area', 'weather.capNoArea')] as ImportProblemRecord[] };
  }
  return { ...count, skipped: read.skipped };
}


import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AreaGeometry, BBox, PipeLengthByType } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { bboxBox, pipes } from '../../db/schema.ts';
import { bboxOf } from '../../geo/geometry.ts';
import { boxSql, pointInAreaSql } from '../../geo/sql.ts';
import { containsText } from '../../db/like.ts';

/**
 * SQL join condition: the enterprise's pipe of row id `rowId`. The enterprise picks the pipe's
 * partition (migration 0026): by its id alone every enterprise's partition would be searched.
 */
export function pipeWithRowId(rowId: AnyPgColumn, enterpriseId: number): SQL {
  return and(eq(pipes.id, rowId), eq(pipes.enterpriseId, enterpriseId))!;
}

/** Keywords of at most this many characters are looked up by their grams (migration 0047). */
const GRAM_KEYWORD_CHARS = 2;

/** Whether `keyword` is looked up in the gram index: short, and without the character its pairs are cut at. */
export const isGramKeyword = (keyword: string) => [...keyword].length <= GRAM_KEYWORD_CHARS && !keyword.includes('\u0001');

/**
 * SQL condition: the pipe id holds `keyword` anywhere, in any case. One or two characters are
 * looked up in the pipe ids' grams (exactly the rows ILIKE finds); longer ones by trigrams.
 */
export function pipeIdContains(keyword: string): SQL {
  return isGramKeyword(keyword) ? sql`(text_grams(${pipes.pipeId}) collate "C") @> array[lower(${keyword})]` : containsText(pipes.pipeId, keyword);
}

/** SQL condition: the pipe's bbox intersects `box` (the GiST box index answers it). */
export function pipeBboxIntersects(box: BBox): SQL {
  return sql`${bboxBox(pipes)} && ${boxSql(box)}`;
}

/**
 * SQL condition: the pipe lies in the area. A segment counts when the centre of its bounding box
 * (for a straight street-block segment, its midpoint) lies in the area: segments are short, so
 * this is what a user would measure by hand. The bbox test lets the GiST index narrow first; the
 * exact even-odd test (geo/sql.ts) decides, holes excluded.
 */
export function pipeInsideArea(area: AreaGeometry): SQL {
  return sql`(${pipeBboxIntersects(bboxOf(area))} and ${pointInAreaSql(sql`((${pipes.minx} + ${pipes.maxx}) / 2)`, sql`((${pipes.miny} + ${pipes.maxy}) / 2)`, area)})`;
}

/** Pipe length by network type inside an area, added up in SQL. */
export async function pipeLengthInArea(db: Db, enterpriseId: number, area: AreaGeometry): Promise<PipeLengthByType> {
  const rows = await db
    .select({ networkType: pipes.networkType, lengthM: sql<number>`round(sum(${pipes.lengthM}))::float8` })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), pipeInsideArea(area)))
    .groupBy(pipes.networkType);
  return Object.fromEntries(rows.map((row) => [row.networkType, Number(row.lengthM)]));
}

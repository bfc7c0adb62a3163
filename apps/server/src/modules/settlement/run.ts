import { and, eq, sql } from 'drizzle-orm';
import type { LineGeometry, SettlementRunProfile } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { pipes } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { linesOf } from '../../geo/geometry.ts';
import { pipeBboxIntersects } from '../pipelines/queries.ts';
import { indexPoints, loadPoints, pointsNearLine, profileAlong } from './analysis.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { getThresholds, round, type DatasetRow } from './service.ts';

/** A run stops at this length or this many segments, whichever comes first. */
const MAX_RUN_M = 3_000;
const MAX_RUN_SEGMENTS = 60;
/** Ends closer than this meet (the same junction digitised twice). */
const JOIN_TOLERANCE_M = 0.5;

type Position = number[];
interface RunSegment {
  pipeRowId: number;
  pipeId: string;
  coordinates: Position[];
  lengthM: number;
}

/** A segment's line as one list of positions (a multi-part segment's parts end to end). */
const positionsOf = (geometry: LineGeometry) => linesOf(geometry).flat();

function lengthOf(coordinates: Position[]) {
  let length = 0;
  for (let i = 1; i < coordinates.length; i++) {
    const [mx, my] = metresPerDegree((coordinates[i][1] + coordinates[i - 1][1]) / 2);
    length += Math.hypot((coordinates[i][0] - coordinates[i - 1][0]) * mx, (coordinates[i][1] - coordinates[i - 1][1]) * my);
  }
  return length;
}

function meets(a: Position, b: Position) {
  const [mx, my] = metresPerDegree(a[1]);
  return Math.hypot((a[0] - b[0]) * mx, (a[1] - b[1]) * my) <= JOIN_TOLERANCE_M;
}

/** The segments of the enterprise's network with an end at `at`, other than those already in the run. */
async function segmentsEndingAt(db: Db, enterpriseId: number, networkType: string, at: Position, taken: Set<number>) {
  const [mx, my] = metresPerDegree(at[1]);
  const dx = JOIN_TOLERANCE_M / mx, dy = JOIN_TOLERANCE_M / my;
  const rows = await db
    .select({ id: pipes.id, pipeId: pipes.pipeId, geometry: pipes.geometry })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), sql`${pipes.networkType} = ${networkType}`, pipeBboxIntersects([at[0] - dx, at[1] - dy, at[0] + dx, at[1] + dy])));
  return rows
    .filter((r) => !taken.has(r.id))
    .map((r) => ({ pipeRowId: r.id, pipeId: r.pipeId, coordinates: positionsOf(r.geometry as LineGeometry) }))
    .filter((s) => meets(s.coordinates[0], at) || meets(s.coordinates[s.coordinates.length - 1], at));
}

/**
 * The run through a segment: extended at each end while that end meets exactly one more segment
 * of the same network (a junction of three or more, or a dead end, stops it), up to MAX_RUN_M and
 * MAX_RUN_SEGMENTS. Segments are turned to follow the run.
 */
async function runThrough(db: Db, enterpriseId: number, pipeRowId: number) {
  const [start] = await db
    .select({ id: pipes.id, pipeId: pipes.pipeId, geometry: pipes.geometry, networkType: pipes.networkType })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), eq(pipes.id, pipeRowId)));
  if (!start) throw notFound('notFound.settlementResult');
  const first = positionsOf(start.geometry as LineGeometry);
  const run: RunSegment[] = [{ pipeRowId: start.id, pipeId: start.pipeId, coordinates: first, lengthM: lengthOf(first) }];
  const taken = new Set([start.id]);
  let lengthM = run[0].lengthM;
  let capped = false;
  for (const forward of [true, false]) {
    for (;;) {
      if (lengthM >= MAX_RUN_M || run.length >= MAX_RUN_SEGMENTS) {
        capped = true;
        break;
      }
      const end = forward ? run[run.length - 1].coordinates.at(-1)! : run[0].coordinates[0];
      const next = await segmentsEndingAt(db, enterpriseId, start.networkType, end, taken);
      if (next.length !== 1) break;
      const segment = next[0];
      // Going forward the next segment must start at the end; going back, end at the start.
      const startsHere = meets(segment.coordinates[0], end);
      const coordinates = startsHere === forward ? segment.coordinates : [...segment.coordinates].reverse();
      const piece = { ...segment, coordinates, lengthM: lengthOf(coordinates) };
      if (forward) run.push(piece);
      else run.unshift(piece);
      taken.add(segment.pipeRowId);
      lengthM += piece.lengthM;
    }
  }
  return { run, capped };
}

/** The profile of the points within the buffer along the run through a segment (see runThrough). */
export async function runProfile(db: Db, dataset: DatasetRow, pipeRowId: number): Promise<SettlementRunProfile> {
  const { run, capped } = await runThrough(db, dataset.enterpriseId, pipeRowId);
  const coordinates = run.flatMap((s, i) => (i ? s.coordinates.slice(1) : s.coordinates));
  const line: LineGeometry = { type: 'LineString', coordinates: coordinates as [number, number][] };
  const { bufferM } = await getThresholds(db, dataset.enterpriseId, dataset.projectId);
  // Only points within the buffer of a segment's box can be near the run: one box per segment (a
  // run turning a corner would have a whole block of points in its overall box).
  const boxes = run.map(({ coordinates: c }) => {
    const lons = c.map((p) => p[0]), lats = c.map((p) => p[1]);
    const [mx, my] = metresPerDegree((Math.min(...lats) + Math.max(...lats)) / 2);
    return [Math.min(...lons) - bufferM / mx, Math.min(...lats) - bufferM / my, Math.max(...lons) + bufferM / mx, Math.max(...lats) + bufferM / my];
  });
  const points = await loadPoints(db, dataset.id, undefined, boxes);
  const { near, lengthM } = points.count ? pointsNearLine(line, points, indexPoints(points), bufferM) : { near: [], lengthM: run.reduce((n, s) => n + s.lengthM, 0) };
  const { profile } = profileAlong(near, lengthM, points);
  let along = 0;
  const segments = run.map((s) => {
    const fromM = along;
    along += s.lengthM;
    return { pipeRowId: s.pipeRowId, pipeId: s.pipeId, fromM: round(fromM, 2), toM: round(along, 2) };
  });
  return { segments, lengthM: round(lengthM, 2), pointCount: near.length, profile, geometry: line, capped };
}

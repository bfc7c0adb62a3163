import KDBush from 'kdbush';
import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { LineGeometry, SettlementCrossing, SettlementLevel, SettlementProfileBin, SettlementResultDetail, SettlementThresholds } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { copyInto } from '../../db/copy.ts';
import { pipes, settlementDatasets, settlementPoints, settlementResults, type StoredGeometry } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { distanceM, linesOf } from '../../geo/geometry.ts';
import { boxSql } from '../../geo/sql.ts';
import { JobInterrupted, type JobRunner } from '../imports/runner.ts';
import { pipeBboxIntersects } from '../pipelines/queries.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { getThresholds, round, type DatasetRow } from './service.ts';

/** The measured points of a dataset in columns, as the join reads them. */
export interface PointColumns {
  count: number;
  ids: Float64Array;
  pointIds: string[];
  lon: Float64Array;
  lat: Float64Array;
  velocity: Float32Array;
  /** The velocity's standard deviation, NaN where the file gave none. */
  velocityStd: Float32Array;
  cumulative: Float32Array;
}

/** A point near a pipe: which one, where along the pipe and how far from it (metres). */
export interface NearPoint {
  index: number;
  alongM: number;
  offsetM: number;
}

/** What one segment's analysis gives, before it is written (the result without the pipe's own attributes). */
export type SegmentFinding = Pick<SettlementResultDetail, 'pipeRowId' | 'pointCount' | 'meanVelocity' | 'minVelocity' | 'maxCumulative' | 'differential' | 'level' | 'crossed' | 'profile' | 'points'>;

const LEVEL_RANK: Record<SettlementLevel, number> = { none: 0, warn: 1, alarm: 2 };
const round2 = (v: number) => round(v, 2);
/**
 * Profile stretches are at least this long, and a segment has at most PROFILE_BINS of them; the
 * differential compares stretches of at least DIFFERENTIAL_MIN_POINTS points (a median of one or
 * two noisy points over a few metres would read as a steep bend).
 */
const MIN_BIN_M = 50;
const DIFFERENTIAL_MIN_POINTS = 3;
const PROFILE_BINS = 50;
/** Points kept per segment for its detail (nearest first). */
const DETAIL_POINTS = 50;

/** Points of the dataset that lie within bufferM of the line (geodesic metres), with their place along it. */
export function pointsNearLine(geometry: LineGeometry, points: PointColumns, index: KDBush, bufferM: number): { near: NearPoint[]; lengthM: number } {
  const parts = linesOf(geometry);
  const [lon0, lat0] = parts[0][0];
  const [mx, my] = metresPerDegree(lat0);
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  // Vertices in local metres from the first one, with the distance along the pipe at each.
  const segments: { ax: number; ay: number; bx: number; by: number; along: number; length: number }[] = [];
  let along = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const [x, y] = part[i];
      minLon = Math.min(minLon, x), maxLon = Math.max(maxLon, x), minLat = Math.min(minLat, y), maxLat = Math.max(maxLat, y);
      if (i === 0) continue;
      const ax = (part[i - 1][0] - lon0) * mx, ay = (part[i - 1][1] - lat0) * my;
      const bx = (x - lon0) * mx, by = (y - lat0) * my;
      // The pipe's own length of the step (geo/geometry.ts), so the profile ends where the pipe does.
      const length = distanceM(part[i - 1], part[i]);
      segments.push({ ax, ay, bx, by, along, length });
      along += length;
    }
  }
  const candidates = index.range(minLon - bufferM / mx, minLat - bufferM / my, maxLon + bufferM / mx, maxLat + bufferM / my);
  const near: NearPoint[] = [];
  for (const i of candidates) {
    const px = (points.lon[i] - lon0) * mx, py = (points.lat[i] - lat0) * my;
    let best = Infinity, bestAlong = 0;
    for (const s of segments) {
      const dx = s.bx - s.ax, dy = s.by - s.ay;
      const step2 = dx * dx + dy * dy;
      const t = step2 > 0 ? Math.max(0, Math.min(1, ((px - s.ax) * dx + (py - s.ay) * dy) / step2)) : 0;
      const d = Math.hypot(px - (s.ax + t * dx), py - (s.ay + t * dy));
      if (d < best) (best = d), (bestAlong = s.along + t * s.length);
    }
    if (best <= bufferM) near.push({ index: i, alongM: bestAlong, offsetM: best });
  }
  return { near, lengthM: along };
}

function quantile(sorted: number[], q: number) {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}

/**
 * Velocity along a line: median and quartiles per stretch (at least MIN_BIN_M, at most
 * PROFILE_BINS of them), and the differential settlement, the largest change between neighbouring
 * stretch medians of DIFFERENTIAL_MIN_POINTS or more points, per 100 m, counting only a change the
 * points' noise cannot explain (`isDifferential`).
 */
export function profileAlong(near: NearPoint[], lengthM: number, points: Pick<PointColumns, 'velocity' | 'velocityStd'>): { profile: SettlementProfileBin[]; differential: number | null } {
  const binM = Math.max(MIN_BIN_M, lengthM / PROFILE_BINS);
  const binCount = Math.max(1, Math.ceil(lengthM / binM));
  const bins: NearPoint[][] = Array.from({ length: binCount }, () => []);
  for (const p of near) bins[Math.min(binCount - 1, Math.floor(p.alongM / binM))].push(p);
  const profile: SettlementProfileBin[] = [];
  const stretches: Stretch[] = [];
  bins.forEach((binPoints, i) => {
    if (!binPoints.length) return;
    const values = binPoints.map((p) => points.velocity[p.index]).sort((a, b) => a - b);
    const median = quantile(values, 0.5), q25 = quantile(values, 0.25), q75 = quantile(values, 0.75);
    if (values.length >= DIFFERENTIAL_MIN_POINTS) stretches.push({ centre: (i + 0.5) * binM, median, noise: stretchNoise(binPoints, points.velocityStd, q75 - q25) });
    profile.push({ fromM: round2(i * binM), toM: round2(Math.min(lengthM, (i + 1) * binM)), count: values.length, median: round2(median), q25: round2(q25), q75: round2(q75) });
  });
  let differential: number | null = null;
  for (let i = 1; i < stretches.length; i++) {
    const [a, b] = [stretches[i - 1], stretches[i]];
    // Stretches compared but their difference within the noise: no differential settlement (0), not unknown (null).
    const gradient = isDifferential(a, b) ? (Math.abs(b.median - a.median) / (b.centre - a.centre)) * 100 : 0;
    differential = Math.max(differential ?? 0, gradient);
  }
  return { profile, differential };
}

/** A stretch of a line with enough points: where it is, its median velocity and how noisy that is (mm/yr). */
interface Stretch {
  centre: number;
  median: number;
  noise: number;
}

/**
 * A stretch's noise: the larger of its points' velocity standard deviation (root mean square of
 * those the file gave) and its own spread (interquartile range / 1.349, a standard deviation for
 * normal noise). Not divided by the square root of the count: neighbouring InSAR points share
 * their atmosphere's error.
 */
function stretchNoise(binPoints: NearPoint[], velocityStd: Float32Array, interquartile: number): number {
  let sum = 0, given = 0;
  for (const p of binPoints) {
    const std = velocityStd[p.index];
    if (Number.isFinite(std)) (sum += std * std), given++;
  }
  return Math.max(given ? Math.sqrt(sum / given) : 0, interquartile / 1.349);
}

/**
 * Whether two neighbouring stretches settle differently: their medians differ by more than twice
 * their combined noise (2 × √(σa² + σb²)), and at least one of them moves by more than twice its
 * own noise. Between points of ground that moves less than its noise, a gradient is noise.
 */
export function isDifferential(a: Stretch, b: Stretch): boolean {
  const beyondNoise = Math.abs(b.median - a.median) > 2 * Math.hypot(a.noise, b.noise);
  const groundMoves = Math.abs(a.median) > 2 * a.noise || Math.abs(b.median) > 2 * b.noise;
  return beyondNoise && groundMoves;
}

/**
 * A segment's figures from the points near it: their mean and lowest velocity, the largest
 * cumulative subsidence, the profile along the pipe and the differential settlement
 * (`profileAlong`); then its level by the thresholds, saying which it crossed and by how much.
 */
export function judgeSegment(pipeRowId: number, near: NearPoint[], lengthM: number, points: PointColumns, thresholds: SettlementThresholds): SegmentFinding {
  let sum = 0, minVelocity = Infinity, maxCumulative = Infinity;
  for (const p of near) {
    const v = points.velocity[p.index];
    sum += v;
    minVelocity = Math.min(minVelocity, v);
    maxCumulative = Math.min(maxCumulative, points.cumulative[p.index]);
  }
  const meanVelocity = sum / near.length;
  const { profile, differential } = profileAlong(near, lengthM, points);

  const crossed: SettlementCrossing[] = [];
  // Subsidence thresholds are negative (lower is worse); the differential is a size (higher is worse).
  const judge = (metric: SettlementCrossing['metric'], value: number | null, alarm: number, lowerIsWorse: boolean) => {
    if (value === null) return;
    const past = (threshold: number) => (lowerIsWorse ? value <= threshold : value >= threshold);
    const warn = alarm * thresholds.warnRatio;
    const level = past(alarm) ? 'alarm' : past(warn) ? 'warn' : null;
    if (!level) return;
    const threshold = level === 'alarm' ? alarm : warn;
    crossed.push({ metric, level, value: round2(value), threshold: round2(threshold), by: round2(Math.abs(value - threshold)) });
  };
  judge('velocity', meanVelocity, thresholds.velocityAlarm, true);
  judge('cumulative', maxCumulative, thresholds.cumulativeAlarm, true);
  judge('differential', differential, thresholds.differentialAlarm, false);
  const level: SettlementLevel = crossed.some((c) => c.level === 'alarm') ? 'alarm' : crossed.length ? 'warn' : 'none';

  const nearest = [...near].sort((a, b) => a.offsetM - b.offsetM).slice(0, DETAIL_POINTS);
  return {
    pipeRowId,
    pointCount: near.length,
    meanVelocity: round2(meanVelocity),
    minVelocity: round2(minVelocity),
    maxCumulative: round2(maxCumulative),
    differential: differential === null ? null : round2(differential),
    level,
    crossed,
    profile,
    points: nearest.map((p) => ({ id: points.ids[p.index], pointId: points.pointIds[p.index], alongM: round2(p.alongM), offsetM: round2(p.offsetM), velocity: round2(points.velocity[p.index]) })),
  };
}

const POINT_BATCH = 100_000;
const PIPE_BATCH = 20_000;

/** The dataset's points (or those in any of `boxes`, lon/lat) into columns, read in id order a batch at a time. */
export async function loadPoints(db: Db, datasetId: number, signal?: AbortSignal, boxes?: readonly (readonly number[])[]): Promise<PointColumns> {
  const inBoxes = boxes && or(...boxes.map((box) => sql`point(${settlementPoints.lon}, ${settlementPoints.lat}) <@ ${boxSql(box)}`));
  const chunks: { id: number; pointId: string; lon: number; lat: number; velocity: number; velocityStd: number | null; cumulative: number }[][] = [];
  let after = 0;
  for (;;) {
    if (signal?.aborted) throw new JobInterrupted();
    const rows = await db
      .select({ id: settlementPoints.id, pointId: settlementPoints.pointId, lon: settlementPoints.lon, lat: settlementPoints.lat, velocity: settlementPoints.velocity, velocityStd: settlementPoints.velocityStd, cumulative: settlementPoints.cumulative })
      .from(settlementPoints)
      .where(and(eq(settlementPoints.datasetId, datasetId), gt(settlementPoints.id, after), inBoxes))
      .orderBy(settlementPoints.id)
      .limit(POINT_BATCH);
    if (!rows.length) break;
    chunks.push(rows);
    after = rows[rows.length - 1].id;
  }
  const count = chunks.reduce((n, c) => n + c.length, 0);
  const columns: PointColumns = { count, ids: new Float64Array(count), pointIds: new Array(count), lon: new Float64Array(count), lat: new Float64Array(count), velocity: new Float32Array(count), velocityStd: new Float32Array(count), cumulative: new Float32Array(count) };
  let i = 0;
  for (const chunk of chunks) {
    for (const r of chunk) {
      columns.ids[i] = r.id;
      columns.pointIds[i] = r.pointId;
      columns.lon[i] = r.lon;
      columns.lat[i] = r.lat;
      columns.velocity[i] = r.velocity;
      columns.velocityStd[i] = r.velocityStd ?? NaN;
      columns.cumulative[i] = r.cumulative;
      i++;
    }
    chunk.length = 0;
  }
  return columns;
}

export function indexPoints(points: PointColumns): KDBush {
  const index = new KDBush(Math.max(1, points.count));
  for (let i = 0; i < points.count; i++) index.add(points.lon[i], points.lat[i]);
  index.finish();
  return index;
}

const RESULT_COLUMNS = ['dataset_id', 'run', 'pipe_row_id', 'point_count', 'mean_velocity', 'min_velocity', 'max_cumulative', 'differential', 'level', 'crossed', 'profile', 'points'];

/**
 * One analysis run of a dataset: every pipe segment of the enterprise within reach of its points
 * is judged, the results written by COPY under a new run number, and the dataset switched to that
 * run in one update (readers see the old results or the new, never a mix).
 */
export async function analyseDataset(db: Db, dataset: DatasetRow, signal: AbortSignal) {
  const thresholds = await getThresholds(db, dataset.enterpriseId, dataset.projectId);
  const { projectId: _p, own: _o, ...judgedBy } = thresholds;
  const run = dataset.analysisRun + 1;
  const points = await loadPoints(db, dataset.id, signal);
  const index = indexPoints(points);
  const [mx, my] = metresPerDegree((dataset.miny + dataset.maxy) / 2);
  const reach = [dataset.minx - thresholds.bufferM / mx, dataset.miny - thresholds.bufferM / my, dataset.maxx + thresholds.bufferM / mx, dataset.maxy + thresholds.bufferM / my] as [number, number, number, number];
  const writer = await copyInto(db, 'settlement_results', RESULT_COLUMNS);
  const summary = { segments: 0, warn: 0, alarm: 0, thresholds: judgedBy };
  try {
    let after = 0;
    for (;;) {
      if (signal.aborted) throw new JobInterrupted();
      const batch = await db
        .select({ id: pipes.id, geometry: pipes.geometry })
        .from(pipes)
        .where(and(eq(pipes.enterpriseId, dataset.enterpriseId), pipeBboxIntersects(reach), gt(pipes.id, after)))
        .orderBy(pipes.id)
        .limit(PIPE_BATCH);
      if (!batch.length) break;
      after = batch[batch.length - 1].id;
      for (const pipe of batch) {
        const { near, lengthM } = pointsNearLine(pipe.geometry as StoredGeometry as LineGeometry, points, index, thresholds.bufferM);
        if (!near.length) continue;
        const f = judgeSegment(pipe.id, near, lengthM, points, thresholds);
        summary.segments++;
        if (f.level !== 'none') summary[f.level]++;
        await writer.write([dataset.id, run, f.pipeRowId, f.pointCount, f.meanVelocity, f.minVelocity, f.maxCumulative, f.differential, LEVEL_RANK[f.level], f.crossed, f.profile, f.points]);
      }
    }
    await writer.end();
  } catch (error) {
    await writer.abort();
    await db.delete(settlementResults).where(and(eq(settlementResults.datasetId, dataset.id), eq(settlementResults.run, run)));
    throw error;
  }
  await db.transaction(async (tx) => {
    await tx.update(settlementDatasets).set({ analysisRun: run, analysisStatus: 'done', analysedAt: new Date(), analysisSummary: summary }).where(eq(settlementDatasets.id, dataset.id));
    await tx.delete(settlementResults).where(and(eq(settlementResults.datasetId, dataset.id), ne(settlementResults.run, run)));
  });
}

/** Starts, reruns and tracks analyses; one at a time per dataset. */
export class SettlementAnalyses {
  constructor(
    private readonly db: Db,
    private readonly runner: JobRunner,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts an analysis of the dataset in the background (409 while one runs). */
  async start(enterpriseId: number, datasetId: number) {
    const started = await this.claim(enterpriseId, datasetId);
    if (!started.length) throw new AppError(409, 'settlement.busy');
    const dataset = started[0];
    const key = `settlement:${datasetId}`;
    this.runner.run({ id: key, enterpriseId }, (signal) =>
      analyseDataset(this.db, dataset, signal).catch(async (error) => {
        await this.db.update(settlementDatasets).set({ analysisStatus: 'failed' }).where(eq(settlementDatasets.id, datasetId)).catch(() => {});
        if (!(error instanceof JobInterrupted)) this.log.error({ err: error, datasetId }, 'settlement analysis failed');
      }),
    );
  }

  /**
   * After an import changed the pipes, as part of its job: every ready dataset analysed again in
   * turn, here rather than as jobs of their own, whose end would ask for the network's risk again
   * (the import assesses it once, after this). One the user started is waited for, then analysed
   * again; one that fails is marked failed and logged, and the rest go on.
   */
  async analyseAllNow(enterpriseId: number, signal: AbortSignal, progress: (share: number) => Promise<void>) {
    const datasets = await this.db
      .select({ id: settlementDatasets.id })
      .from(settlementDatasets)
      .where(and(eq(settlementDatasets.enterpriseId, enterpriseId), eq(settlementDatasets.status, 'ready')));
    for (const [done, { id }] of datasets.entries()) {
      await this.runner.settled(`settlement:${id}`);
      const [dataset] = await this.claim(enterpriseId, id);
      // Started by someone since: that analysis reads the new network too.
      if (!dataset) continue;
      try {
        await analyseDataset(this.db, dataset, signal);
      } catch (error) {
        await this.db.update(settlementDatasets).set({ analysisStatus: 'failed' }).where(eq(settlementDatasets.id, id)).catch(() => {});
        if (error instanceof JobInterrupted) throw error;
        this.log.error({ err: error, datasetId: id }, 'settlement analysis failed');
      }
      await progress((done + 1) / datasets.length);
    }
  }

  /** Marks a ready dataset as being analysed, in one step with the check that no analysis of it runs. */
  private claim(enterpriseId: number, datasetId: number) {
    return this.db
      .update(settlementDatasets)
      .set({ analysisStatus: 'running' })
      .where(and(eq(settlementDatasets.id, datasetId), eq(settlementDatasets.enterpriseId, enterpriseId), eq(settlementDatasets.status, 'ready'), ne(settlementDatasets.analysisStatus, 'running')))
      .returning();
  }

  /** Waits for the dataset's analysis to end (tests and benchmarks). */
  settled(datasetId: number) {
    return this.runner.settled(`settlement:${datasetId}`);
  }
}

/** At start: analyses left running by a server that stopped are marked failed (they rerun on demand). */
export async function failInterruptedAnalyses(db: Db) {
  await db.update(settlementDatasets).set({ analysisStatus: 'failed' }).where(eq(settlementDatasets.analysisStatus, 'running'));
}

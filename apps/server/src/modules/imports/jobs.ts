import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { RUNNING_IMPORT_STATUSES, type ImportJobView, type Language, type MessageKey, type UnknownWord } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { importJobs, pipeImportRows, type ImportProblemRecord } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/uploads.ts';
import { crsOfSrid, reprojectToWgs84, type DetectedCrs, type Reproject } from './crs.ts';
import { HEARTBEAT_MS, JobInterrupted } from './runner.ts';
import { MAX_PROBLEMS, problem } from './problems.ts';
import { openImportFile, UnreadableFile, type Source } from './sources/index.ts';
import { MAX_FIELDS, tooManyFields } from './sources/types.ts';

export type ImportJob = typeof importJobs.$inferSelect;
export type ImportKind = ImportJob['kind'];

/** Features read to list a file's fields and their sample values. */
const SAMPLE_FEATURES = 200;

/** What a kind asks of a file's fields at analysis, beyond their count. */
export interface FieldRules {
  /** Why the fields cannot be imported (refused at upload with 400), or null. */
  check?: (names: readonly string[]) => { key: MessageKey; params: Record<string, string | number> } | null;
  /** Whether the mapping step shows a field's samples (fields it does not show keep their names only). */
  sampled?: (name: string) => boolean;
}
/** A running job whose heartbeat (every HEARTBEAT_MS) stopped this long ago lost its server. */
const STALE_AFTER_MS = 6 * HEARTBEAT_MS;
/** An analysed job left at the mapping step this long is abandoned: its upload goes. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;
/** Statuses whose files are still on disk: they count against the enterprise's quota. */
const PENDING_STATUSES = ['analysed', ...RUNNING_IMPORT_STATUSES] as const;

export interface ImportLimits {
  dataDir: string;
  uploadLimit: number;
  /** What an enterprise's pending imports may hold on disk at once (bytes). */
  quota: number;
  /** Files from this size on are read by worker threads, where a kind can. */
  parallelFromBytes: number;
}

const uploadPath = (job: Pick<ImportJob, 'workDir' | 'fileName'>) => join(job.workDir, `upload${extname(job.fileName).toLowerCase()}`);
const unpackedDir = (job: Pick<ImportJob, 'workDir'>) => join(job.workDir, 'unpacked');
/** A zip may unpack to this many times the upload limit. */
const unzipLimit = (limits: ImportLimits) => limits.uploadLimit * 4;

/** Opens the job's file again (a zip is unpacked once, at analysis). */
export function openJobSource(job: ImportJob, limits: ImportLimits): Promise<Source> {
  return openImportFile(uploadPath(job), job.fileName, unpackedDir(job), unzipLimit(limits));
}

/** The coordinate system the job reads in: the user's choice, else what the file says. */
export function jobCrs(job: ImportJob, srid: number | undefined): DetectedCrs | null {
  if (srid !== undefined) return crsOfSrid(srid);
  if (job.detectedSrid !== null) return crsOfSrid(job.detectedSrid);
  if (job.detectedCrs === null) return null;
  return { srid: null, name: job.detectedCrs, definition: job.crsDefinition };
}

const sampleText = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value)).slice(0, 60);

/**
 * Keeps an upload as a new job: the file is opened (a zip unpacked), its first features give the
 * field names, sample values and geometry types for the mapping step. A file that cannot be read
 * is refused with the reason and nothing is kept.
 */
export async function analyseUpload(db: Db, limits: ImportLimits, input: { enterpriseId: number; userId: number; kind: ImportKind; upload: UploadedFile }, rules: FieldRules = {}) {
  await abandonIdleJobs(db, input.enterpriseId);
  // Said before the work of reading, counting the uploads this server is reading for the
  // enterprise now (the count is held for sure when the job is kept, below).
  await assertWithinQuota(db, limits, input.enterpriseId, input.upload.size, false, () => readingBytes.get(input.enterpriseId) ?? 0);
  readingBytes.set(input.enterpriseId, (readingBytes.get(input.enterpriseId) ?? 0) + input.upload.size);
  try {
    return await analyse(db, limits, input, rules);
  } finally {
    const left = (readingBytes.get(input.enterpriseId) ?? 0) - input.upload.size;
    if (left > 0) readingBytes.set(input.enterpriseId, left);
    else readingBytes.delete(input.enterpriseId);
  }
}

/** Bytes of the uploads this server is analysing, per enterprise (not yet jobs, so not in the table). */
const readingBytes = new Map<number, number>();

async function analyse(db: Db, limits: ImportLimits, input: { enterpriseId: number; userId: number; kind: ImportKind; upload: UploadedFile }, rules: FieldRules) {
  const workDir = join(limits.dataDir, 'imports', randomUUID());
  await mkdir(workDir, { recursive: true });
  const draft = { workDir, fileName: input.upload.filename };
  await rename(input.upload.path, uploadPath(draft));
  try {
    const source = await openImportFile(uploadPath(draft), draft.fileName, unpackedDir(draft), unzipLimit(limits));
    const fields = new Map<string, string[]>();
    const geometryTypes = new Set<string>();
    const sampled = rules.sampled ?? (() => true);
    let count = 0;
    for await (const feature of source.features()) {
      if (feature.geometry) geometryTypes.add(feature.geometry.type);
      for (const [name, value] of Object.entries(feature.properties)) {
        const samples = fields.get(name) ?? fields.set(name, []).get(name)!;
        const text = value === null || value === undefined ? '' : sampleText(value);
        if (text.trim() && samples.length < 3 && !samples.includes(text) && sampled(name)) samples.push(text);
      }
      // Other formats say their fields feature by feature (a CSV's header was counted when opened).
      if (fields.size > MAX_FIELDS) throw tooManyFields(fields.size);
      if (++count >= SAMPLE_FEATURES) break;
    }
    if (count === 0) throw new UnreadableFile('import.noFeatures');
    const refused = rules.check?.(source.columns ?? [...fields.keys()]);
    if (refused) throw new UnreadableFile(refused.key, refused.params);
    const diskBytes = await folderBytes(workDir);
    return await db.transaction(async (tx) => {
      await assertWithinQuota(tx, limits, input.enterpriseId, diskBytes, true);
      const [job] = await tx
        .insert(importJobs)
        .values({
          enterpriseId: input.enterpriseId,
          kind: input.kind,
          status: 'analysed',
          fileName: input.upload.filename,
          fileSize: input.upload.size,
          workDir,
          diskBytes,
          format: source.format,
          detectedSrid: source.crs?.srid ?? null,
          detectedCrs: source.crs?.name ?? null,
          crsDefinition: source.crs?.definition ?? null,
          fields: [...fields].map(([name, samples]) => ({ name, samples })),
          geometryTypes: [...geometryTypes],
          createdBy: input.userId,
          heartbeatAt: new Date(),
        })
        .returning();
      return job;
    });
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    if (error instanceof UnreadableFile) throw badRequest(error.messageKey, error.params);
    throw error;
  }
}

/** Bytes of the files in a job's folder and its unpacked folder. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await folderBytes(path) : (await stat(path)).size;
  }
  return total;
}

/**
 * Refuses an upload that would take the enterprise's pending imports past its quota. With `hold`
 * the enterprise's row is locked first (in the caller's transaction), so uploads that arrive at
 * once are counted one after another: the check and the count are one step. `inFlight` adds the uploads
 * this server is still reading (read in the same turn as the check).
 */
async function assertWithinQuota(db: Pick<Db, 'execute' | 'select'>, limits: ImportLimits, enterpriseId: number, bytes: number, hold = false, inFlight = () => 0) {
  if (hold) await db.execute(sql`select 1 from enterprises where id = ${enterpriseId} for update`);
  const [{ stored }] = await db
    .select({ stored: sql<number>`coalesce(sum(${importJobs.diskBytes}), 0)::float8` })
    .from(importJobs)
    .where(and(eq(importJobs.enterpriseId, enterpriseId), inArray(importJobs.status, [...PENDING_STATUSES])));
  // Read after the await, and the caller counts its own bytes in the same turn: one step.
  const used = Number(stored) + inFlight();
  if (used + bytes > limits.quota) {
    const mb = (n: number) => Math.ceil(n / 1024 / 1024);
    throw new AppError(413, 'import.quota', { used: mb(used), size: mb(bytes), quota: mb(limits.quota) });
  }
}

/**
 * Jobs left at the mapping step for an hour (never started, or back to ask for words and not
 * answered) end as failed and their files go; for one enterprise, or all.
 */
export async function abandonIdleJobs(db: Db, enterpriseId?: number): Promise<number> {
  const idle = await db
    .select({ id: importJobs.id, workDir: importJobs.workDir })
    .from(importJobs)
    .where(
      and(
        eq(importJobs.status, 'analysed'),
        enterpriseId === undefined ? undefined : eq(importJobs.enterpriseId, enterpriseId),
        lt(sql`coalesce(${importJobs.heartbeatAt}, ${importJobs.createdAt})`, sql`now() - ${`${ABANDONED_AFTER_MS / 1000} seconds`}::interval`),
      ),
    );
  for (const job of idle) await markFailed(db, job, [problem(null, null, null, 'import.abandoned')], 1, 'analysed');
  return idle.length;
}

export async function getImportJob(db: Db, enterpriseId: number, id: number, kind: ImportKind): Promise<ImportJob> {
  await failStaleJobs(db, enterpriseId);
  const [job] = await db.select().from(importJobs).where(and(eq(importJobs.id, id), eq(importJobs.enterpriseId, enterpriseId), eq(importJobs.kind, kind)));
  if (!job) throw notFound('notFound.import');
  return job;
}

export async function listImportJobs(db: Db, enterpriseId: number, kind: ImportKind, limit = 20) {
  await failStaleJobs(db, enterpriseId);
  return db.select().from(importJobs).where(and(eq(importJobs.enterpriseId, enterpriseId), eq(importJobs.kind, kind))).orderBy(desc(importJobs.id)).limit(limit);
}

/** One job at a time per enterprise: two writers of the same network would undo each other. */
export async function assertNoRunningJob(db: Db, enterpriseId: number, kind: ImportKind) {
  await failStaleJobs(db, enterpriseId);
  const [running] = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(eq(importJobs.enterpriseId, enterpriseId), eq(importJobs.kind, kind), inArray(importJobs.status, [...RUNNING_IMPORT_STATUSES])));
  if (running) throw new AppError(409, 'import.busy');
}

/**
 * Marks the job as running with the user's options (only from analysed, so a double click starts
 * it once). Another job of its kind running for the enterprise makes it busy: assertNoRunningJob
 * says so early, and the database's one-running index (import_jobs_one_running_idx) holds it when
 * two starts come at once.
 */
export async function markStarted(db: Db, job: ImportJob, options: Record<string, unknown>) {
  const started = await db
    .update(importJobs)
    .set({ status: 'validating', options, unknownWords: [], startedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'analysed')))
    .returning({ id: importJobs.id })
    .catch((error) => {
      if (uniqueViolation(error)) throw new AppError(409, 'import.busy');
      throw error;
    });
  if (!started.length) throw new AppError(409, 'import.notAnalysed');
}

export async function reportProgress(db: Db, jobId: number, values: Partial<Pick<ImportJob, 'status' | 'progress' | 'rowsRead'>>) {
  await db.update(importJobs).set({ ...values, heartbeatAt: new Date() }).where(eq(importJobs.id, jobId));
}

export { MAX_PROBLEMS, problem } from './problems.ts';

type StagedCleanup = (db: Db, jobId: number) => Promise<void>;
const stagedCleanups: StagedCleanup[] = [async (db, jobId) => void (await db.delete(pipeImportRows).where(eq(pipeImportRows.jobId, jobId)))];

/** How a kind that stages elsewhere than pipe_import_rows drops what a failed job staged. */
export function onJobFailed(cleanup: StagedCleanup) {
  stagedCleanups.push(cleanup);
}

/** Ends the job as failed with its report; nothing it staged stays. */
export async function markFailed(db: Db, job: Pick<ImportJob, 'id' | 'workDir'>, problems: ImportProblemRecord[], problemCount = problems.length, onlyFrom?: ImportJob['status']) {
  for (const cleanup of stagedCleanups) await cleanup(db, job.id);
  const ended = await db
    .update(importJobs)
    .set({ status: 'failed', problems: problems.slice(0, MAX_PROBLEMS), problemCount, diskBytes: 0, finishedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(importJobs.id, job.id), onlyFrom ? eq(importJobs.status, onlyFrom) : undefined))
    .returning({ id: importJobs.id });
  // A job started meanwhile keeps its files.
  if (ended.length) await rm(job.workDir, { recursive: true, force: true });
}

/** The bounding box around many boxes (what an import wrote), or null for none. */
export function extentOf(boxes: Iterable<number[]>): [number, number, number, number] | null {
  const e: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) (e[0] = Math.min(e[0], b[0])), (e[1] = Math.min(e[1], b[1])), (e[2] = Math.max(e[2], b[2])), (e[3] = Math.max(e[3], b[3]));
  return Number.isFinite(e[0]) ? e : null;
}

/** A pipe network is in: the job goes on to measure what depends on it (its second phase, with its own progress). */
export async function markWritten(tx: Pick<Db, 'update'>, jobId: number, rowsWritten: number, result: NonNullable<ImportJob['result']>) {
  await tx.update(importJobs).set({ status: 'measuring', progress: 0, rowsWritten, result, heartbeatAt: new Date() }).where(eq(importJobs.id, jobId));
}

/** What depended on the network is measured again: the job has succeeded. */
export async function markMeasured(db: Db, jobId: number) {
  await db.update(importJobs).set({ status: 'succeeded', progress: 1, diskBytes: 0, finishedAt: new Date(), heartbeatAt: new Date() }).where(and(eq(importJobs.id, jobId), eq(importJobs.status, 'measuring')));
}

/** Ends the job as succeeded with what it wrote, in the transaction that wrote it. */
export async function markSucceeded(tx: Pick<Db, 'update'>, jobId: number, rowsWritten: number, result: NonNullable<ImportJob['result']>) {
  await tx.update(importJobs).set({ status: 'succeeded', progress: 1, rowsWritten, result, diskBytes: 0, finishedAt: new Date(), heartbeatAt: new Date() }).where(eq(importJobs.id, jobId));
}

export async function removeWorkDir(job: Pick<ImportJob, 'workDir'>) {
  await rm(job.workDir, { recursive: true, force: true });
}

async function failStaleJobs(db: Db, enterpriseId: number) {
  await abandonIdleJobs(db, enterpriseId);
  await failJobsWithoutServer(db, and(eq(importJobs.enterpriseId, enterpriseId), lt(importJobs.heartbeatAt, sql`now() - ${`${STALE_AFTER_MS / 1000} seconds`}::interval`))!);
}

/**
 * At start: jobs left running by a server that died end as interrupted, their staged rows and
 * files dropped. The embedded database has one server, so every running job there is such a
 * job; on a PostgreSQL server shared by several, only those whose heartbeat stopped. A job cut
 * off while measuring had written its network: it succeeds, and the enterprises it answers are
 * measured again by the caller.
 */
export async function failInterruptedJobs(db: Db, everyRunningJob: boolean): Promise<number[]> {
  return failJobsWithoutServer(db, everyRunningJob ? undefined : lt(importJobs.heartbeatAt, sql`now() - ${`${STALE_AFTER_MS / 1000} seconds`}::interval`));
}

async function failJobsWithoutServer(db: Db, condition: SQL | undefined): Promise<number[]> {
  const stale = await db
    .select({ id: importJobs.id, enterpriseId: importJobs.enterpriseId, status: importJobs.status, workDir: importJobs.workDir })
    .from(importJobs)
    .where(and(inArray(importJobs.status, [...RUNNING_IMPORT_STATUSES]), condition));
  const toMeasure = new Set<number>();
  for (const job of stale) {
    if (job.status === 'measuring') {
      await markMeasured(db, job.id);
      await removeWorkDir(job);
      toMeasure.add(job.enterpriseId);
    } else await markFailed(db, job, [problem(null, null, null, 'import.interrupted')]);
  }
  return [...toMeasure];
}

/** The job as the console shows it, problems in the reader's language. */
export function importJobView(job: ImportJob, lang: Language, suggestedMapping: ImportJobView['suggestedMapping']): ImportJobView {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    fileName: job.fileName,
    fileSize: job.fileSize,
    format: job.format,
    detectedSrid: job.detectedSrid,
    detectedCrs: job.detectedCrs,
    fields: job.fields,
    geometryTypes: job.geometryTypes,
    suggestedMapping,
    options: job.options as ImportJobView['options'],
    progress: job.progress,
    rowsRead: job.rowsRead,
    rowsWritten: job.rowsWritten,
    problemCount: job.problemCount,
    unknownWords: job.unknownWords,
    problems: job.problems.map((p) => ({ row: p.row, featureId: p.featureId, field: p.field, reason: p.reason[lang] })),
    result: job.result,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/** Thrown by a job whose only problems are words no table knew: it goes back to ask for them. */
export class NeedsWords extends Error {
  constructor(readonly words: UnknownWord[]) {
    super('the file has words to ask about');
  }
}

/** The job back at the mapping step with the words to ask; its upload stays for the next start. */
async function markNeedsWords(db: Db, job: ImportJob, words: UnknownWord[]) {
  // Its hour at the mapping step starts again now.
  await db.update(importJobs).set({ status: 'analysed', unknownWords: words, progress: 0, heartbeatAt: new Date() }).where(eq(importJobs.id, job.id));
}

/**
 * Runs the reading and writing of a started job, the same for every kind: the coordinate system
 * must be known, and an interruption, an unreadable file or an unexpected error ends the job as
 * failed with the reason (its work writes in one transaction, so nothing is half-written). On
 * success the uploaded file goes.
 */
export async function runImportJob(db: Db, limits: ImportLimits, job: ImportJob, srid: number | undefined, work: (source: Source, reproject: Reproject, crs: DetectedCrs) => Promise<void>) {
  try {
    const crs = jobCrs(job, srid);
    if (!crs) return await markFailed(db, job, [problem(null, null, 'srid', 'import.unknownCrs')]);
    if (!crs.definition) return await markFailed(db, job, [problem(null, null, 'srid', 'import.crsUnreadable', { name: crs.name })]);
    await work(await openJobSource(job, limits), reprojectToWgs84(crs), crs);
    await removeWorkDir(job);
  } catch (error) {
    if (error instanceof JobInterrupted) return await markFailed(db, job, [problem(null, null, null, 'import.interrupted')]);
    if (error instanceof NeedsWords) return await markNeedsWords(db, job, error.words);
    // A file refused at one record (U+0000 in it) names that record as the problem's row too.
    if (error instanceof UnreadableFile) return await markFailed(db, job, [problem(typeof error.params.row === 'number' ? error.params.row : null, null, 'file', error.messageKey, error.params)]);
    await markFailed(db, job, [problem(null, null, null, 'import.internal')]).catch(() => {});
    throw error;
  }
}

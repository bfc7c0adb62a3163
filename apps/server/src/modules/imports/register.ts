import type { ImportProblemRecord } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { markFailed, NeedsWords, reportProgress, type ImportJob } from './jobs.ts';
import { MAX_PROBLEMS, problem } from './problems.ts';
import { JobInterrupted } from './runner.ts';
import type { Source, SourceFeature } from './sources/index.ts';
import type { WordReader } from './words.ts';

const PROGRESS_EVERY_MS = 500;

/** A row read from a feature, or the feature's problems. */
export type RegisterRead<R> = R | { problems: ImportProblemRecord[] };

export interface RegisterOptions<R> {
  read: (feature: SourceFeature) => RegisterRead<R>;
  /** A key no two rows may share (a site number, a device code), and the problem of the second. */
  unique?: { key: (row: R) => string | null; problem: (feature: SourceFeature, row: R) => ImportProblemRecord };
}

/**
 * Reads a register all or nothing: every feature becomes a row or its problems (a key seen twice
 * is one), with progress and the job's abort checked as it goes. An empty file, or problems,
 * fail the job (nothing is written; answers null); when the only problems are words nothing knows,
 * the job asks for them (NeedsWords). Otherwise answers every row.
 */
export async function readRegister<R extends object>(db: Db, job: ImportJob, source: Source, signal: AbortSignal, words: WordReader, options: RegisterOptions<R>): Promise<R[] | null> {
  const rows: R[] = [];
  const problems: ImportProblemRecord[] = [];
  let problemCount = 0;
  let reportedAt = Date.now();
  const seen = new Set<string>();
  for await (const feature of source.features()) {
    const result = options.read(feature);
    let found = 'problems' in result ? result.problems : [];
    if (!('problems' in result) && options.unique) {
      const key = options.unique.key(result);
      if (key !== null && seen.has(key)) found = [options.unique.problem(feature, result)];
      else if (key !== null) seen.add(key);
    }
    if (found.length) {
      problemCount += found.length;
      if (problems.length < MAX_PROBLEMS) problems.push(...found.slice(0, MAX_PROBLEMS - problems.length));
    } else if (problemCount === 0) rows.push(result as R);
    if (Date.now() - reportedAt > PROGRESS_EVERY_MS) {
      if (signal.aborted) throw new JobInterrupted();
      reportedAt = Date.now();
      await reportProgress(db, job.id, { progress: Math.min(source.progress(), 0.99), rowsRead: rows.length + problemCount });
    }
  }
  if (rows.length + problemCount === 0) problems.push(problem(null, null, null, 'import.noFeatures')), problemCount++;
  const ask = words.toAsk(problemCount);
  if (ask) throw new NeedsWords(ask);
  if (problemCount > 0) {
    await markFailed(db, job, problems, problemCount);
    return null;
  }
  await reportProgress(db, job.id, { status: 'writing', progress: 1, rowsRead: rows.length });
  return rows;
}

import { eq, sql } from 'drizzle-orm';
import { WORD_VALUES, normalWord, readBuildType, readRiskKind, readRiskLevel, readSensorKind, type UnknownWord, type WordAnswers, type WordField } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { importWords } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';

/** Distinct unknown words a job asks about at most; more in one file is a wrong column, not a vocabulary. */
const MAX_UNKNOWN_WORDS = 100;

const TABLES: Record<WordField, (text: string) => string | null> = { buildType: readBuildType, riskKind: readRiskKind, riskLevel: readRiskLevel, sensorKind: readSensorKind };

/**
 * A job's reader of register words: the contract's tables first, then the enterprise's remembered
 * answers; what neither knows is counted (the problem the row gets is a word problem) and listed
 * once per word, so the import can ask for it instead of refusing the file.
 */
export class WordReader {
  private readonly unknown = new Map<string, UnknownWord>();
  /** Rows' problems that are unknown words (the job asks when they are all its problems). */
  unknownCount = 0;

  private constructor(private readonly remembered: Map<string, string>) {}

  static async load(db: Db, enterpriseId: number) {
    const rows = await db.select().from(importWords).where(eq(importWords.enterpriseId, enterpriseId));
    return new WordReader(new Map(rows.map((r) => [`${r.field}:${r.word}`, r.value])));
  }

  read<V extends string>(field: WordField, text: string, row: number): V | null {
    const key = `${field}:${normalWord(text)}`;
    const known = TABLES[field](text) ?? this.remembered.get(key);
    if (known) return known as V;
    this.unknownCount++;
    const seen = this.unknown.get(key);
    if (seen) seen.count++;
    else if (this.unknown.size < MAX_UNKNOWN_WORDS) this.unknown.set(key, { field, word: text.trim(), count: 1, row });
    return null;
  }

  /** The words to ask about, when every problem the file has is one of them (else the file fails as it is). */
  toAsk(problemCount: number): UnknownWord[] | null {
    return problemCount > 0 && problemCount === this.unknownCount && this.unknown.size < MAX_UNKNOWN_WORDS ? [...this.unknown.values()] : null;
  }
}

/** Keeps the user's answers for the enterprise (a later answer for the same word replaces the earlier). */
export async function rememberWords(db: Db, enterpriseId: number, answers: WordAnswers | undefined) {
  if (!answers?.length) return;
  for (const a of answers) if (!WORD_VALUES[a.field].includes(a.value)) throw badRequest('import.wordAnswer', { value: a.value, field: a.field });
  // One row per word as stored (the last answer wins): an insert may not update the same row twice.
  const byWord = new Map(answers.map((a) => [`${a.field}:${normalWord(a.word)}`, { enterpriseId, field: a.field, word: normalWord(a.word), value: a.value }]));
  const rows = [...byWord.values()];
  await db
    .insert(importWords)
    .values(rows)
    .onConflictDoUpdate({ target: [importWords.enterpriseId, importWords.field, importWords.word], set: { value: sql`excluded.value`, updatedAt: new Date() } });
}

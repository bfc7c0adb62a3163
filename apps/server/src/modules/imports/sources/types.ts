import type { Geometry } from 'geojson';
import type { ImportFormat, MessageKey } from '@console/contract';
import type { DetectedCrs } from '../crs.ts';

/** Where a CSV keeps its geometry and attributes (plain data: a worker thread gets it too). */
export interface CsvLayout {
  wktColumn: number;
  lonColumn: number;
  latColumn: number;
  attributes: [name: string, index: number][];
}

/** One feature of an import file, in the file's own coordinate system. */
export interface SourceFeature {
  /** 1-based position in the file, for the failure report. */
  row: number;
  geometry: Geometry | null;
  properties: Record<string, unknown>;
  /** Set when the row itself cannot be read (e.g. bad WKT in a CSV). */
  problem?: MessageKey;
  /** A CSV row's fields in the order of the source's `columns` (readers of wide files use them by position). */
  values?: readonly string[];
}

/** An opened import file: what it says of itself, and its features one by one (streamed). */
export interface Source {
  format: ImportFormat;
  /** null when the file does not say (a Shapefile without .prj). */
  crs: DetectedCrs | null;
  features(): AsyncGenerator<SourceFeature>;
  /** Share of the file read so far, 0..1. */
  progress(): number;
  /** A CSV's header, in file order. */
  columns?: readonly string[];
  /**
   * The records as text in batches (rows numbered from firstRow), for a reader that spreads the
   * work over threads: each makes its features with recordFeature (sources/index.ts).
   */
  recordBatches?(size: number): AsyncGenerator<{ firstRow: number; records: string[] }>;
  layout?: CsvLayout;
}

/** Fields a file may have (2,000 dates of a settlement series and the point's own attributes): more are refused before rows are read. */
export const MAX_FIELDS = 2_100;
export const tooManyFields = (count: number) => new UnreadableFile('import.tooManyColumns', { count, max: MAX_FIELDS });

/** Absolute paths (two or more segments) where a message names a file on the server's disk. */
const SERVER_PATH = /(?<=^|[\s'"(])(?:[A-Za-z]:)?[\\/][^\\/\s'"()]+(?:[\\/][^\\/\s'"()]+)+/g;

/**
 * A reader's message as a user may see it: a path on the server's disk becomes the file's own
 * name, and system error codes (ENOENT: ...) go. The user knows the file, not our disk.
 */
export function withoutServerPaths(text: string): string {
  return text.replace(/\bE[A-Z]{2,}: /g, '').replace(SERVER_PATH, (path) => path.split(/[\\/]/).pop()!);
}

/** A file that cannot be read at all: the message says which and why (never where it lies on the server). */
export class UnreadableFile extends Error {
  readonly params: Record<string, string | number>;
  constructor(
    readonly messageKey: MessageKey,
    params: Record<string, string | number> = {},
  ) {
    super(messageKey);
    this.params = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? withoutServerPaths(value) : value]));
  }
}

/**
 * Refuses a feature whose attributes hold U+0000 (PostgreSQL text and jsonb cannot store it),
 * naming the record and the field: a name, a text value, or text nested in a value.
 */
export function refuseNul(row: number, properties: Record<string, unknown>) {
  for (const [name, value] of Object.entries(properties)) {
    const nested = value !== null && typeof value === 'object' && JSON.stringify(value).includes('\\u0000');
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0')) || nested) {
      throw new UnreadableFile('import.nul', { row, field: name.replace(/\0/g, '\\0') });
    }
  }
}

import type { Geometry } from 'geojson';
import type { ImportFormat, MessageKey } from '@console/contract';
import type { DetectedCrs } from '../crs.ts';

/** One feature of an import file, in the file's own coordinate system. */
export interface SourceFeature {
  /** 1-based position in the file, for the failure report. */
  row: number;
  geometry: Geometry | null;
  properties: Record<string, unknown>;
  /** Set when the row itself cannot be read (e.g. bad WKT in a CSV). */
  problem?: MessageKey;
}

/** An opened import file: what it says of itself, and its features one by one (streamed). */
export interface Source {
  format: ImportFormat;
  /** null when the file does not say (a Shapefile without .prj). */
  crs: DetectedCrs | null;
  features(): AsyncGenerator<SourceFeature>;
  /** Share of the file read so far, 0..1. */
  progress(): number;
}

/** A file that cannot be read at all: the message says which and why. */
export class UnreadableFile extends Error {
  constructor(
    readonly messageKey: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(messageKey);
  }
}

// What a worker thread of an import loads to read its records: the two formats it is handed
// (not every reader of sources/index.ts, nor what they load).
import { recordFeature } from './csv.ts';
import { geoJsonFeature } from './geojson.ts';
import type { CsvLayout, SourceFeature } from './types.ts';

/**
 * How a worker thread makes the feature of one record that a source's recordBatches gave: plain
 * data in (the format, a CSV's layout), so a thread can be handed it.
 */
export function recordReader(format: 'csv' | 'geojson', layout?: CsvLayout): (record: string, row: number) => SourceFeature {
  if (format === 'geojson') return geoJsonFeature;
  return (record, row) => recordFeature(record, row, layout!);
}

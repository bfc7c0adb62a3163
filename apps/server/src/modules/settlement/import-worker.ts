// A worker thread of a big settlement import (see import.ts): CSV record texts in, checked COPY lines out.
import type { SettlementImportStart } from '@console/contract';
import { reprojectToWgs84, type DetectedCrs } from '../imports/crs.ts';
import { csvFeature, recordFields, type CsvLayout } from '../imports/sources/csv.ts';
import { serveBatches } from '../imports/workers.ts';
import { addPoint, emptyPointBatch, readingPlan } from './rows.ts';

export interface PointWorkerInit {
  columns: string[];
  layout: CsvLayout;
  options: SettlementImportStart;
  dateNames: string[];
  crs: DetectedCrs;
  prefix: string;
}

serveBatches((init: PointWorkerInit) => {
  const plan = readingPlan(init.columns, init.options, init.dateNames);
  const reproject = reprojectToWgs84(init.crs);
  return ({ firstRow, records }: { firstRow: number; records: string[] }) => {
    const batch = emptyPointBatch();
    for (let i = 0; i < records.length; i++) addPoint(batch, csvFeature(recordFields(records[i]), firstRow + i, init.layout), plan, reproject, init.prefix);
    // One string crosses to the main thread faster than thousands.
    batch.lines = [batch.lines.join('')];
    return batch;
  };
});

// A worker thread of a big settlement import (see import.ts): CSV record texts in, checked binary COPY rows out.
import type { SettlementImportStart } from '@console/contract';
import { reprojectToWgs84, type DetectedCrs } from '../imports/crs.ts';
import type { CsvLayout } from '../imports/sources/types.ts';
import { recordReader } from '../imports/sources/records.ts';
import { serveBatches } from '../imports/workers.ts';
import { addPoint, emptyPointBatch, readingPlan, sealPointBatch } from './rows.ts';

export interface PointWorkerInit {
  columns: string[];
  layout: CsvLayout;
  options: SettlementImportStart;
  dateNames: string[];
  crs: DetectedCrs;
  datasetId: number;
}

serveBatches((init: PointWorkerInit) => {
  const plan = readingPlan(init.columns, init.options, init.dateNames);
  const reproject = reprojectToWgs84(init.crs);
  const featureOf = recordReader('csv', init.layout);
  return ({ firstRow, records }: { firstRow: number; records: string[] }) => {
    const batch = emptyPointBatch();
    for (let i = 0; i < records.length; i++) addPoint(batch, featureOf(records[i], firstRow + i), plan, reproject, init.datasetId);
    // The rows cross to the main thread as one block of bytes, written by COPY as they are.
    return sealPointBatch(batch);
  };
});

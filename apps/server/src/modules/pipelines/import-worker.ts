// A worker thread of a big pipe import (see import.ts): feature texts in, checked staging lines out.
import type { PipeImportStart } from '@console/contract';
import { reprojectToWgs84, type DetectedCrs } from '../imports/crs.ts';
import type { CsvLayout } from '../imports/sources/types.ts';
import { recordReader } from '../imports/sources/records.ts';
import { serveBatches } from '../imports/workers.ts';
import { checkPipes, type CheckedPipes, type PipeTarget } from './rows.ts';

export interface PipeWorkerInit {
  format: 'csv' | 'geojson';
  layout?: CsvLayout;
  options: PipeImportStart;
  crs: DetectedCrs;
  target: PipeTarget;
}

/** A batch of records, and whether the import has failed already (then nothing is staged). */
export interface PipeWorkerBatch {
  firstRow: number;
  records: string[];
  failed: boolean;
}

serveBatches((init: PipeWorkerInit) => {
  const reproject = reprojectToWgs84(init.crs);
  const featureOf = recordReader(init.format, init.layout);
  return ({ firstRow, records, failed }: PipeWorkerBatch): CheckedPipes =>
    checkPipes(
      records.map((record, i) => featureOf(record, firstRow + i)),
      init.options,
      reproject,
      init.target,
      failed,
    );
});

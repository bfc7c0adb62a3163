import ExcelJS from 'exceljs';
import type { LineGeometry } from '@console/contract';
import type { allPipes } from './service.ts';

type Pipe = Awaited<ReturnType<typeof allPipes>>[number];

export const EXPORT_FORMATS = ['geojson', 'csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Attribute columns of an export, in order. */
const FIELDS = ['pipeId', 'networkType', 'material', 'diameterMm', 'pressureClass', 'installYear', 'depthM', 'owner', 'lengthM'] as const;

/** WKT of a line geometry, as GIS tools read it from CSV. */
export function toWkt(geometry: LineGeometry): string {
  const line = (points: number[][]) => `(${points.map((p) => `${p[0]} ${p[1]}`).join(', ')})`;
  return geometry.type === 'LineString' ? `LINESTRING ${line(geometry.coordinates)}` : `MULTILINESTRING (${geometry.coordinates.map(line).join(', ')})`;
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export async function exportPipes(rows: Pipe[], format: ExportFormat): Promise<{ body: Buffer; type: string; extension: string }> {
  if (format === 'geojson') {
    const collection = {
      type: 'FeatureCollection',
      features: rows.map((row) => ({
        type: 'Feature',
        id: row.pipeId,
        geometry: row.geometry,
        properties: Object.fromEntries(FIELDS.map((f) => [f, row[f]])),
      })),
    };
    return { body: Buffer.from(JSON.stringify(collection)), type: 'application/geo+json', extension: 'geojson' };
  }
  if (format === 'csv') {
    const lines = [[...FIELDS, 'wkt'].join(',')];
    for (const row of rows) lines.push([...FIELDS.map((f) => csvCell(row[f])), csvCell(toWkt(row.geometry as LineGeometry))].join(','));
    // A byte order mark lets spreadsheet programs read the Chinese text as UTF-8.
    return { body: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`), type: 'text/csv; charset=utf-8', extension: 'csv' };
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('pipes');
  sheet.columns = [...FIELDS, 'wkt'].map((key) => ({ header: key, key, width: key === 'wkt' ? 60 : 14 }));
  for (const row of rows) sheet.addRow({ ...Object.fromEntries(FIELDS.map((f) => [f, row[f]])), wkt: toWkt(row.geometry as LineGeometry) });
  sheet.getRow(1).font = { bold: true };
  return { body: Buffer.from(await workbook.xlsx.writeBuffer()), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
}

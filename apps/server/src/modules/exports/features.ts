import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Geometry } from 'geojson';

export const EXPORT_FORMATS = ['geojson', 'csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFeature {
  id: string;
  geometry: Geometry;
  properties: Record<string, unknown>;
}

/** WKT of a geometry, as GIS tools read it from CSV. */
export function toWkt(geometry: Geometry): string {
  const points = (ps: number[][]) => `(${ps.map((p) => `${p[0]} ${p[1]}`).join(', ')})`;
  const rings = (rs: number[][][]) => `(${rs.map(points).join(', ')})`;
  switch (geometry.type) {
    case 'Point':
      return `POINT (${geometry.coordinates[0]} ${geometry.coordinates[1]})`;
    case 'LineString':
      return `LINESTRING ${points(geometry.coordinates)}`;
    case 'MultiLineString':
      return `MULTILINESTRING ${rings(geometry.coordinates)}`;
    case 'Polygon':
      return `POLYGON ${rings(geometry.coordinates)}`;
    case 'MultiPolygon':
      return `MULTIPOLYGON (${geometry.coordinates.map(rings).join(', ')})`;
    default:
      throw new Error(`no WKT for ${geometry.type}`);
  }
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Rows of an export read a page at a time: a network of a million segments is never held whole. */
export const EXPORT_PAGE = 5_000;

/**
 * A query's rows in pages of EXPORT_PAGE, in key order: `page(after)` reads the rows after the
 * last page's last key (null first), so each page is an index range, never a deep offset.
 */
export async function* keysetPages<Row, Key>(page: (after: Key | null) => Promise<Row[]>, keyOf: (row: Row) => Key, size = EXPORT_PAGE): AsyncGenerator<Row[]> {
  let after: Key | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/**
 * Features as a file, streamed as the pages come: GeoJSON, CSV with a WKT column (UTF-8 with a
 * byte order mark, so spreadsheet programs read Chinese text) or XLSX (ExcelJS's streaming
 * writer); `fields` are the attribute columns, in order.
 */
export function exportFeatures<Row>(
  rows: AsyncIterable<Row[]>,
  toFeature: (row: Row) => ExportFeature,
  fields: readonly string[],
  sheetName: string,
  format: ExportFormat,
): { stream: Readable; type: string; extension: string } {
  const pages = (async function* () {
    for await (const page of rows) yield page.map(toFeature);
  })();
  if (format === 'geojson') {
    const text = async function* () {
      yield '{"type":"FeatureCollection","features":[';
      let first = true;
      for await (const page of pages) {
        if (!page.length) continue;
        yield (first ? '' : ',') + page.map((f) => JSON.stringify({ type: 'Feature', id: f.id, geometry: f.geometry, properties: f.properties })).join(',');
        first = false;
      }
      yield ']}';
    };
    return { stream: Readable.from(text()), type: 'application/geo+json', extension: 'geojson' };
  }
  const rowPages = (async function* () {
    for await (const page of pages) yield page.map((f) => ({ ...f.properties, wkt: toWkt(f.geometry) }));
  })();
  return exportTable(rowPages, [...fields, 'wkt'], sheetName, format, { wkt: 60 });
}

/**
 * Rows as a table file, streamed as the pages come: CSV (UTF-8 with a byte order mark, so
 * spreadsheet programs read Chinese text) or XLSX (ExcelJS's streaming writer); `fields` are the
 * columns, in order, `widths` of the wide ones.
 */
export function exportTable(
  pages: AsyncIterable<Record<string, unknown>[]>,
  fields: readonly string[],
  sheetName: string,
  format: 'csv' | 'xlsx',
  widths: Record<string, number> = {},
): { stream: Readable; type: string; extension: string } {
  if (format === 'csv') {
    const text = async function* () {
      yield `\uFEFF${fields.join(',')}\r\n`;
      for await (const page of pages) yield page.map((row) => `${fields.map((name) => csvCell(row[name])).join(',')}\r\n`).join('');
    };
    return { stream: Readable.from(text()), type: 'text/csv; charset=utf-8', extension: 'csv' };
  }
  const stream = new PassThrough();
  const write = async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = fields.map((key) => ({ header: key, key, width: widths[key] ?? 14 }));
    sheet.getRow(1).font = { bold: true };
    // Text as inline strings (t="inlineStr", a rich text of one run): ExcelJS writes plain text
    // as t="str", a formula's result, which GDAL and others do not take for text (a header row of
    // them is read as a feature); shared strings would hold every distinct value in memory.
    const inline = (value: unknown) => (typeof value === 'string' ? { richText: [{ text: value }] } : value);
    const header = sheet.getRow(1);
    fields.forEach((key, i) => (header.getCell(i + 1).value = inline(key) as ExcelJS.CellValue));
    for await (const page of pages) {
      for (const row of page) sheet.addRow(fields.map((key) => inline(row[key]))).commit();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error) => stream.destroy(error));
  return { stream, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
}

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

/**
 * Features as a file: GeoJSON, CSV with a WKT column (UTF-8 with a byte order mark, so spreadsheet
 * programs read Chinese text) or XLSX; `fields` are the attribute columns, in order.
 */
export async function exportFeatures(features: ExportFeature[], fields: readonly string[], sheetName: string, format: ExportFormat): Promise<{ body: Buffer; type: string; extension: string }> {
  if (format === 'geojson') {
    const collection = { type: 'FeatureCollection', features: features.map((f) => ({ type: 'Feature', id: f.id, geometry: f.geometry, properties: f.properties })) };
    return { body: Buffer.from(JSON.stringify(collection)), type: 'application/geo+json', extension: 'geojson' };
  }
  if (format === 'csv') {
    const lines = [[...fields, 'wkt'].join(',')];
    for (const f of features) lines.push([...fields.map((name) => csvCell(f.properties[name])), csvCell(toWkt(f.geometry))].join(','));
    return { body: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`), type: 'text/csv; charset=utf-8', extension: 'csv' };
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = [...fields, 'wkt'].map((key) => ({ header: key, key, width: key === 'wkt' ? 60 : 14 }));
  for (const f of features) sheet.addRow({ ...f.properties, wkt: toWkt(f.geometry) });
  sheet.getRow(1).font = { bold: true };
  return { body: Buffer.from(await workbook.xlsx.writeBuffer()), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
}

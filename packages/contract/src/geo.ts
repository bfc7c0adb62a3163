import { z } from 'zod';

/** Is a [lon, lat] on the globe? */
export const inLonLatRange = (p: readonly number[]) => Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90;
/** The fewest positions a line has. */
export const MIN_LINE_POSITIONS = 2;

/** A WGS84 position [lon, lat] (extra values such as height are ignored). */
export const position = z
  .array(z.number().finite())
  .min(2, { message: 'field.geometry.position' })
  .refine(inLonLatRange, { message: 'field.geometry.outOfRange' });

const line = z.array(position).min(MIN_LINE_POSITIONS, { message: 'field.geometry.lineTooShort' });
const ring = z
  .array(position)
  .min(4, { message: 'field.geometry.ringTooShort' })
  .refine((r) => r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1], { message: 'field.geometry.ringNotClosed' });

export const lineGeometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('LineString'), coordinates: line }),
  z.object({ type: z.literal('MultiLineString'), coordinates: z.array(line).min(1) }),
], { error: 'field.geometry.line' });
export type LineGeometry = z.infer<typeof lineGeometry>;

export const areaGeometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) }),
], { error: 'field.geometry.area' });
export type AreaGeometry = z.infer<typeof areaGeometry>;

/** A geometry sent in a form-encoded body arrives as JSON text. */
export const jsonText = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, schema);

/** [minX, minY, maxX, maxY] in WGS84. */
export type BBox = [number, number, number, number];

import { z } from 'zod';
import { id, optionalText } from './fields.ts';
import { jsonText, lineGeometry } from './geo.ts';
import { NETWORK_TYPES } from './projects.ts';

const optionalNumber = (schema: z.ZodNumber) => z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().pipe(schema).optional());

export const pipeBody = z.object({
  pipeId: z.string().trim().min(1, { message: 'field.required' }).max(60),
  networkType: z.enum(NETWORK_TYPES),
  material: optionalText(40),
  diameterMm: optionalNumber(z.number().int().positive().max(5000)),
  pressureClass: optionalText(20),
  installYear: optionalNumber(z.number().int().min(1850).max(2100)),
  depthM: optionalNumber(z.number().min(0).max(100)),
  owner: optionalText(100),
  geometry: jsonText(lineGeometry),
});
export type PipeInput = z.infer<typeof pipeBody>;

export const pipeListQuery = z.object({
  keyword: z.string().trim().max(60).optional(),
  networkType: z.enum(NETWORK_TYPES).optional(),
  material: z.string().trim().max(40).optional(),
  diameterMin: optionalNumber(z.number().min(0)),
  diameterMax: optionalNumber(z.number().min(0)),
  installYearMin: optionalNumber(z.number().int()),
  installYearMax: optionalNumber(z.number().int()),
  projectId: optionalNumber(z.number().int().positive()),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
});
export type PipeListQuery = z.infer<typeof pipeListQuery>;

export const pipeIdParams = z.object({ id });

import { z } from 'zod';
import { id, optionalNumber, optionalText } from './fields.ts';
import { jsonText, lineGeometry } from './geo.ts';
import { NETWORK_TYPES } from './projects.ts';
import { EXACT_LIST_LIMIT } from './lists.ts';

/** A pipe's attributes: everything of it but its line. */
export const pipeAttributes = z.object({
  pipeId: z.string().trim().min(1, { message: 'field.required' }).max(60),
  networkType: z.enum(NETWORK_TYPES),
  material: optionalText(40),
  diameterMm: optionalNumber(z.number().int().positive().max(5000)),
  pressureClass: optionalText(20),
  installYear: optionalNumber(z.number().int().min(1850).max(2100)),
  depthM: optionalNumber(z.number().min(0).max(100)),
  owner: optionalText(100),
});
export type PipeAttributes = z.infer<typeof pipeAttributes>;
export const pipeBody = pipeAttributes.extend({ geometry: jsonText(lineGeometry) });
export type PipeInput = z.infer<typeof pipeBody>;

/** What narrows the pipe list (and its export). */
export const pipeFilters = z.object({
  keyword: z.string().trim().max(60).optional(),
  networkType: z.enum(NETWORK_TYPES).optional(),
  material: z.string().trim().max(40).optional(),
  diameterMin: optionalNumber(z.number().min(0)),
  diameterMax: optionalNumber(z.number().min(0)),
  installYearMin: optionalNumber(z.number().int()),
  installYearMax: optionalNumber(z.number().int()),
  projectId: optionalNumber(z.number().int().positive()),
});
export type PipeFilters = z.infer<typeof pipeFilters>;

export const pipeListQuery = pipeFilters.extend({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
  /** Keyset paging: the page after this pipe id, the page before it, or the last page. */
  after: z.string().max(60).optional(),
  before: z.string().max(60).optional(),
  last: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
}).superRefine((q, ctx) => {
  if (q.after === undefined && q.before === undefined && !q.last && (q.page - 1) * q.pageSize > EXACT_LIST_LIMIT) {
    ctx.addIssue({ code: 'custom', path: ['page'], message: 'field.page.tooDeep' });
  }
});
export type PipeListQuery = z.infer<typeof pipeListQuery>;


export const pipeIdParams = z.object({ id });

/** A page of the pipes a site's corridor or a risk-prone area holds (nearest first). */
export const pipeSetQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type PipeSetQuery = z.infer<typeof pipeSetQuery>;
export interface PipeSetPage {
  list: {
    pipeRowId: number;
    pipeId: string;
    networkType: (typeof NETWORK_TYPES)[number];
    diameterMm: number | null;
    material: string | null;
    pressureClass: string | null;
    lengthM: number;
    /** From the place's edge; 0 inside. */
    distanceM: number;
  }[];
  total: number;
  page: number;
  pageSize: number;
}

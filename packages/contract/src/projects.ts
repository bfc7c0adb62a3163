import { z } from 'zod';
import { id, optionalText, requiredText } from './fields.ts';
import { areaGeometry, jsonText } from './geo.ts';

export const NETWORK_TYPES = ['water', 'gas', 'drainage', 'heat', 'power', 'telecom'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

export const PROJECT_STATUSES = ['planned', 'active', 'closed'] as const;

const dateText = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'field.date' }).optional(),
);

const networkTypeList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.enum(NETWORK_TYPES)).min(1, { message: 'field.required' }),
);

export const projectBody = z
  .object({
    name: requiredText(100),
    code: z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, { message: 'field.code.format' }),
    city: requiredText(50),
    district: optionalText(50),
    area: jsonText(areaGeometry),
    networkTypes: networkTypeList,
    startDate: dateText,
    endDate: dateText,
    status: z.enum(PROJECT_STATUSES).default('planned'),
    description: optionalText(2000),
  })
  .superRefine((p, ctx) => {
    if (p.startDate && p.endDate && p.endDate < p.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'field.endDate.beforeStart' });
    }
  });
export type ProjectInput = z.infer<typeof projectBody>;

export const projectListQuery = z.object({
  keyword: z.string().trim().max(100).optional(),
  status: z.enum(PROJECT_STATUSES).optional(),
});

export const projectIdParams = z.object({ id });

/** Pipe length (m) inside a project's area, by network type. */
export type PipeLengthByType = Partial<Record<NetworkType, number>>;

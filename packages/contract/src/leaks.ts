import { z } from 'zod';
import { id, isoDateTime, optionalDate, optionalDateTime, optionalNumber, optionalText, requiredText } from './fields.ts';
import { areaGeometry, jsonText } from './geo.ts';
import { importSrid, fieldMapping } from './imports.ts';

/** Satellites offered in forms; others may be named. */
export const SATELLITES = ['SAOCOM-1A', 'SAOCOM-1B', 'ALOS-2', 'Sentinel-1A'] as const;
export const ORBIT_DIRECTIONS = ['ascending', 'descending'] as const;
export const ACQUISITION_MODES = ['StripMap', 'TOPSAR Narrow', 'TOPSAR Wide'] as const;
export const POLARISATIONS = ['single', 'dual', 'quad'] as const;
export const ACQUISITION_STATUSES = ['planned', 'acquired', 'processing', 'delivered', 'failed'] as const;
export type AcquisitionStatus = (typeof ACQUISITION_STATUSES)[number];


/** One satellite scene: when, how, where (footprint) and how far processing got. */
export const acquisitionBody = z.object({
  satellite: requiredText(40),
  productId: requiredText(120),
  acquiredAt: isoDateTime,
  orbitDirection: z.enum(ORBIT_DIRECTIONS),
  mode: z.enum(ACQUISITION_MODES),
  polarisation: z.enum(POLARISATIONS),
  footprint: jsonText(areaGeometry),
  status: z.enum(ACQUISITION_STATUSES).default('acquired'),
});
export type AcquisitionInput = z.infer<typeof acquisitionBody>;

/** Scene attributes a metadata file's fields can be matched to; productId and acquiredAt are required. */
export const ACQUISITION_IMPORT_FIELDS = ['productId', 'satellite', 'acquiredAt', 'orbitDirection', 'mode', 'polarisation', 'status'] as const;
export type AcquisitionImportField = (typeof ACQUISITION_IMPORT_FIELDS)[number];
/**
 * The mapping step of a scene list (footprints as polygons): which field fills which attribute, and
 * the values for attributes a file does not carry. A product id already listed is updated.
 */
export const acquisitionImportStartBody = z.object({
  mapping: fieldMapping(ACQUISITION_IMPORT_FIELDS),
  satellite: z.preprocess((v) => (v === '' || v === null ? undefined : v), requiredText(40).optional()),
  orbitDirection: z.enum(ORBIT_DIRECTIONS).optional(),
  mode: z.enum(ACQUISITION_MODES).optional(),
  polarisation: z.enum(POLARISATIONS).optional(),
  status: z.enum(ACQUISITION_STATUSES).default('acquired'),
  srid: importSrid.optional(),
});
export type AcquisitionImportStart = z.infer<typeof acquisitionImportStartBody>;

export const acquisitionListQuery = z.object({
  from: optionalDateTime,
  to: optionalDateTime,
  status: z.enum(ACQUISITION_STATUSES).optional(),
  projectId: optionalNumber(z.number().int().positive()),
});

/**
 * A POI's life: new -> assigned -> investigating -> leakFound | noLeak; leakFound -> repaired.
 * Assigning again is allowed until the finding; a finished POI is reopened (with a reason) to
 * investigating.
 */
export const POI_STATUSES = ['new', 'assigned', 'investigating', 'leakFound', 'noLeak', 'repaired'] as const;
export type PoiStatus = (typeof POI_STATUSES)[number];
/** POIs whose field work is not done: no finding recorded yet. */
export const OPEN_POI_STATUSES: readonly PoiStatus[] = ['new', 'assigned', 'investigating'];
export const POI_ACTIONS = ['assign', 'start', 'finding', 'repair', 'reopen'] as const;
export type PoiAction = (typeof POI_ACTIONS)[number];

/** From which statuses each action may be taken. */
export const POI_ACTION_FROM: Record<PoiAction, readonly PoiStatus[]> = {
  assign: ['new', 'assigned', 'investigating'],
  start: ['assigned'],
  finding: ['investigating'],
  repair: ['leakFound'],
  reopen: ['leakFound', 'noLeak', 'repaired'],
};

export const POI_PRIORITIES = ['high', 'medium', 'low'] as const;
export type PoiPriority = (typeof POI_PRIORITIES)[number];
export const LEAK_TYPES = ['main', 'serviceLine', 'valve', 'hydrant', 'meter', 'joint', 'other'] as const;
/** Default radius of a POI delivered as a point (DOMAIN: about 100 m). */
export const DEFAULT_POI_RADIUS_M = 100;

export const assignBody = z.object({
  poiIds: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean).map(Number) : v),
    z.array(id).min(1, { message: 'field.required' }).max(1000),
  ),
  assigneeId: id,
  dueDate: optionalDate,
});

/** What the crew found on site. A leak needs its type; the rest helps the metrics. */
export const findingBody = z
  .object({
    result: z.enum(['leakFound', 'noLeak']),
    leakType: z.enum(LEAK_TYPES).optional(),
    surfacing: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional()),
    pipeMaterial: optionalText(40),
    pipeDiameterMm: optionalNumber(z.number().int().positive().max(5000)),
    flowM3h: optionalNumber(z.number().min(0).max(10000)),
    depthM: optionalNumber(z.number().min(0).max(100)),
    notes: optionalText(2000),
    foundAt: optionalDateTime,
  })
  .superRefine((f, ctx) => {
    if (f.result === 'leakFound' && !f.leakType) ctx.addIssue({ code: 'custom', path: ['leakType'], message: 'field.required' });
  });
export type FindingInput = z.infer<typeof findingBody>;

export const repairBody = z.object({ repairedAt: optionalDateTime, notes: optionalText(2000) });
export const reopenBody = z.object({ reason: requiredText(500) });

/** The mapping step of a POI delivery import. */
export const POI_IMPORT_FIELDS = ['poiNo', 'radiusM', 'priority', 'estimatedLeakM3h'] as const;
export type PoiImportField = (typeof POI_IMPORT_FIELDS)[number];
export const poiImportStartBody = z.object({
  projectId: id,
  acquisitionId: optionalNumber(z.number().int().positive()),
  name: requiredText(100),
  mapping: fieldMapping(POI_IMPORT_FIELDS),
  defaultRadiusM: z.coerce.number().min(10).max(1000).default(DEFAULT_POI_RADIUS_M),
  srid: importSrid.optional(),
});
export type PoiImportStart = z.infer<typeof poiImportStartBody>;

export const poiListQuery = z.object({
  projectId: optionalNumber(z.number().int().positive()),
  deliveryId: optionalNumber(z.number().int().positive()),
  status: z.enum(POI_STATUSES).optional(),
  priority: z.enum(POI_PRIORITIES).optional(),
  assigneeId: optionalNumber(z.number().int().positive()),
  /** POIs of deliveries made in these days (YYYY-MM-DD, inclusive). */
  from: optionalDate,
  to: optionalDate,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type PoiListQuery = z.infer<typeof poiListQuery>;

export const metricsQuery = z.object({
  projectId: optionalNumber(z.number().int().positive()),
  from: optionalDate,
  to: optionalDate,
});

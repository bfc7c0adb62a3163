import { z } from 'zod';
import { creditCode, id, numberList, optionalBody, optionalText, phone, requiredText } from './fields.ts';
import { ROLES } from './permissions.ts';

/** GET /api/enterprise/getUserEnterprises: one row per enterprise the user belongs to. */
export const userEnterpriseSchema = z.object({
  id: z.number().int(),
  enterpriseName: z.string(),
  /** "1" verified, "0" not (yet) verified. */
  isVerified: z.enum(['1', '0']),
  /** The user's role in that enterprise. */
  userType: z.enum(ROLES),
  /** pending, verified or rejected (verification by the platform). */
  status: z.enum(['pending', 'verified', 'rejected']),
});
export type UserEnterprise = z.infer<typeof userEnterpriseSchema>;

export const enterpriseProfileBody = z.object({
  enterpriseName: requiredText(100),
  creditCode,
  contact: requiredText(50),
  contactPhone: phone,
  address: requiredText(200),
  description: optionalText(2000),
});
export type EnterpriseProfileInput = z.infer<typeof enterpriseProfileBody>;

export const enterpriseSearchQuery = z.object({ name: z.string().trim().max(100).default('') });

export const applyJoinBody = z.object({ enterpriseId: id, message: optionalText(500) });

export const roleBody = z.object({ role: z.enum(ROLES) });
/** An administrator adds a registered user by username or phone number. */
export const inviteBody = z.object({ account: z.string().trim().min(1, { message: 'field.required' }).max(50), role: z.enum(ROLES).default('member') });
export const approveBody = optionalBody(z.object({ role: z.enum(ROLES).default('member') }));
export const idParams = z.object({ id });
export const userIdParams = z.object({ userId: id });

export const pendingQuery = z.object({
  status: z.enum(['pending', 'verified', 'rejected', 'all']).default('pending'),
});
export const rejectBody = optionalBody(z.object({ reason: optionalText(500) }));

export const MAP_SERVICE_TYPES = ['ArcGIS', 'WMTS', 'XYZ', 'none'] as const;
export const SRIDS = [4326, 3857] as const;

/**
 * Map settings of an enterprise (console-spec section 3): the tiled map service the console's
 * maps draw on. Defaults: srid 4326, service type ArcGIS.
 */
export const mapSettingsBody = z
  .object({
    serviceType: z.enum(MAP_SERVICE_TYPES).default('ArcGIS'),
    serviceUrl: optionalText(2000),
    srid: z.coerce
      .number()
      .refine((v) => (SRIDS as readonly number[]).includes(v), { message: 'field.srid' })
      .default(4326),
    resolutions: numberList
      .refine((list) => list.every((r) => r > 0), { message: 'field.resolutions.positive' })
      .refine((list) => list.every((r, i) => i === 0 || r < list[i - 1]), {
        message: 'field.resolutions.decreasing',
      })
      .optional(),
    extent: numberList
      .refine((e) => e.length === 4 && e[0] < e[2] && e[1] < e[3], { message: 'field.extent.order' })
      .optional(),
    origin: numberList.refine((o) => o.length === 2, { message: 'field.number' }).optional(),
    tileSize: z.coerce.number().int().min(64).max(1024).default(256),
    zoomLevel: z.coerce.number().int().min(0).max(30).default(10),
    layerName: optionalText(200),
  })
  .superRefine((value, ctx) => {
    if (value.serviceType === 'none') return;
    if (!value.serviceUrl) {
      ctx.addIssue({ code: 'custom', path: ['serviceUrl'], message: 'field.serviceUrl.required' });
    } else if (!/^(https?:\/\/|\/)\S+$/.test(value.serviceUrl)) {
      ctx.addIssue({ code: 'custom', path: ['serviceUrl'], message: 'field.serviceUrl.format' });
    }
  });
export type MapSettingsInput = z.input<typeof mapSettingsBody>;
export type MapSettings = z.output<typeof mapSettingsBody>;

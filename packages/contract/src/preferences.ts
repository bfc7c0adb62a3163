import { z } from 'zod';
import { NETWORK_TYPES } from './projects.ts';
import { ACQUISITION_STATUSES, POI_PRIORITIES, POI_STATUSES } from './leaks.ts';

const opacity = z.number().min(0).max(1);
const layer = { visible: z.boolean(), opacity };

/** The POI overlay's layers as a user left them: what is shown, how opaque, and which kinds. */
export const poiOverlayLayers = z.object({
  basemap: z.object(layer),
  areas: z.object(layer),
  pipes: z.object({ ...layer, networks: z.array(z.enum(NETWORK_TYPES)) }),
  pois: z.object({ ...layer, statuses: z.array(z.enum(POI_STATUSES)), priorities: z.array(z.enum(POI_PRIORITIES)) }),
  footprints: z.object({ ...layer, statuses: z.array(z.enum(ACQUISITION_STATUSES)) }),
});
export type PoiOverlayLayers = z.infer<typeof poiOverlayLayers>;

/** A user's stored console choices, by key, each with the shape its screen keeps. */
export const PREFERENCES = {
  poiOverlayLayers,
} as const;
export type PreferenceKey = keyof typeof PREFERENCES;
export const PREFERENCE_KEYS = Object.keys(PREFERENCES) as PreferenceKey[];

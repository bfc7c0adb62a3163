import { ACQUISITION_STATUSES, NETWORK_TYPES, POI_PRIORITIES, POI_STATUSES, type PoiOverlayLayers } from '@console/contract';

/** What a user sees before choosing: every layer, every kind; footprints only outlined and paler. */
export const DEFAULT_LAYERS: PoiOverlayLayers = {
  basemap: { visible: true, opacity: 1 },
  areas: { visible: true, opacity: 1 },
  pipes: { visible: true, opacity: 0.9, networks: [...NETWORK_TYPES] },
  pois: { visible: true, opacity: 0.9, statuses: [...POI_STATUSES], priorities: [...POI_PRIORITIES] },
  footprints: { visible: false, opacity: 0.7, statuses: [...ACQUISITION_STATUSES] },
};

/** A stored choice over the defaults, layer by layer, so a layer added later still has its values. */
export function withDefaults(stored: Partial<PoiOverlayLayers> | null | undefined): PoiOverlayLayers {
  const merged = { ...DEFAULT_LAYERS };
  for (const key of Object.keys(DEFAULT_LAYERS) as (keyof PoiOverlayLayers)[]) {
    if (stored?.[key]) (merged as Record<string, unknown>)[key] = { ...DEFAULT_LAYERS[key], ...stored[key] };
  }
  return merged;
}

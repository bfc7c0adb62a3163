/** Metres as km with one decimal from 1 km on, else whole metres. */
export function formatLength(metres: number): string {
  return metres >= 1000 ? `${(metres / 1000).toFixed(1)} km` : `${Math.round(metres)} m`;
}

/** Pipe materials every console knows by name (see `material` in the locales). */
export const KNOWN_MATERIALS = ['ductile iron', 'cast iron', 'steel', 'PE', 'PVC', 'HDPE', 'concrete'];

/** A pipe material in the user's language; materials we do not know show as stored. */
export const materialLabel = (t: (key: string, options?: Record<string, unknown>) => string, material: unknown) =>
  material === null || material === undefined || material === '' ? '-' : t(`material.${String(material)}`, { defaultValue: String(material) });

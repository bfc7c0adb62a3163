/**
 * Scale ranges of the pipe layer, as real GIS layers set them: every pipe from z13, mains (by
 * diameter) from z11, trunk mains from z8, nothing further out. A whole city of distribution pipes
 * is noise at a small scale, and this keeps a tile small at every zoom.
 */
export const PIPE_DETAIL_ZOOMS = { all: 13, mains: 11, trunks: 8 } as const;

export type Floors = Record<'water' | 'gas' | 'drainage' | 'other', number>;
/** Mains: water from DN400, gas from DN200, drainage from DN1000, other networks from DN300. */
export const MAIN_DIAMETER_MM: Floors = { water: 400, gas: 200, drainage: 1000, other: 300 };
/** Trunk mains: water from DN800, gas from DN315, drainage from DN1500, other networks from DN600. */
export const TRUNK_DIAMETER_MM: Floors = { water: 800, gas: 315, drainage: 1500, other: 600 };

/** The smallest diameters a tile at zoom z draws: null for every pipe, 'none' for no pipe. */
export function diameterFloorsAt(z: number): Floors | null | 'none' {
  if (z >= PIPE_DETAIL_ZOOMS.all) return null;
  if (z >= PIPE_DETAIL_ZOOMS.mains) return MAIN_DIAMETER_MM;
  if (z >= PIPE_DETAIL_ZOOMS.trunks) return TRUNK_DIAMETER_MM;
  return 'none';
}

/** A pipe's scale class, stored with it so each scale range has an index of its own. */
export const PIPE_SCALE_CLASS = { trunk: 0, main: 1, detail: 2 } as const;

/** The classes a tile at zoom z draws, as the indexed condition on `scale_class`: null for all, 'none' for none. */
export function scaleConditionAt(z: number): '= 0' | '<= 1' | null | 'none' {
  if (z >= PIPE_DETAIL_ZOOMS.all) return null;
  if (z >= PIPE_DETAIL_ZOOMS.mains) return '<= 1';
  if (z >= PIPE_DETAIL_ZOOMS.trunks) return '= 0';
  return 'none';
}

/** SQL of the scale class from `network_type` and `diameter_mm` (the generated column's expression). */
export function scaleClassExpression(): string {
  const floorOf = (floors: Floors) =>
    `(case "network_type" when 'water' then ${floors.water} when 'gas' then ${floors.gas} when 'drainage' then ${floors.drainage} else ${floors.other} end)`;
  return `case when "diameter_mm" >= ${floorOf(TRUNK_DIAMETER_MM)} then ${PIPE_SCALE_CLASS.trunk} when "diameter_mm" >= ${floorOf(MAIN_DIAMETER_MM)} then ${PIPE_SCALE_CLASS.main} else ${PIPE_SCALE_CLASS.detail} end`;
}

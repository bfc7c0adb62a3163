import type { NetworkType } from './projects.ts';

/**
 * How the console draws its layers, shared with the styles the server hands to desktop GIS and
 * web maps (modules/openData), so both draw the same map.
 */

/**
 * Colours of the network types on maps and legends. Red, orange, yellow and blue belong to the risk
 * and warning levels I-IV (the national four-colour scale), so no network uses them: a blue line is
 * always level IV, never water. Gas pink, drainage brown and telecom green follow the survey colours
 * of CJJ 61; water takes teal, heat purple and power charcoal where CJJ 61's sky blue, orange and red
 * would read as levels.
 */
export const NETWORK_MAP_COLOR: Record<NetworkType, string> = {
  water: '#08979c',
  gas: '#c41d7f',
  drainage: '#8b5a2b',
  heat: '#722ed1',
  power: '#434343',
  telecom: '#389e0d',
};

/**
 * Drawing order where networks share a street: the wide gravity sewers underneath, pressure pipes
 * (water, gas) on top, so a water main is not hidden under the sewer beside it when zoomed out.
 */
export const NETWORK_Z_INDEX: Record<NetworkType, number> = { drainage: 0, heat: 1, power: 1, telecom: 1, gas: 2, water: 3 };

/** Pipe line width in pixels by diameter (mm). */
export const pipeLineWidth = (diameterMm: number) => (diameterMm >= 800 ? 3 : diameterMm >= 300 ? 2 : 1.2);

/** The built-in basemap's palettes: the console's light map and the big screen's night one. */
export const BASEMAP_PALETTE = {
  light: { background: '#f2efe9', water: '#aad3f5', parks: '#c8e6c0', street: '#ffffff', mainStreet: '#fde6a8' },
  dark: { background: '#0a1628', water: '#0f3050', parks: '#0f2f2a', street: '#1b2c44', mainStreet: '#26405f' },
} as const;
/** Street widths in pixels; side streets show from this zoom on. */
export const BASEMAP_STREET_WIDTH = { street: 3, mainStreet: 6 } as const;
export const BASEMAP_SIDE_STREET_MINZOOM = 12;

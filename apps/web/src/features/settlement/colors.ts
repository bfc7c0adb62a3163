import { bandIndex, type SettlementBands, type SettlementLevel } from '@console/contract';

export type ColourMode = 'bands' | 'ramp';

/** The diverging ramp EGMS viewers use: red for subsidence, through pale yellow, to blue for uplift. */
export const RAMP = ['#a50026', '#d73027', '#f46d43', '#fdae61', '#fee090', '#ffffbf', '#e0f3f8', '#abd9e9', '#74add1', '#4575b4', '#313695'];

export const LEVEL_COLOR: Record<SettlementLevel, string> = { none: '#52c41a', warn: '#fa8c16', alarm: '#f5222d' };

/** A value's colour: its band's, or its place on the ramp over [-range, +range]. */
export function colourOf(value: number, mode: ColourMode, bands: SettlementBands, range: number): string {
  if (mode === 'bands') return bands.colors[bandIndex(bands.breaks, value)];
  const share = Math.max(0, Math.min(1, (value + range) / (2 * range)));
  return RAMP[Math.round(share * (RAMP.length - 1))];
}

/** The same colouring as an OpenLayers WebGL style expression on the feature's "value". */
export function colourExpression(mode: ColourMode, bands: SettlementBands, range: number): unknown[] {
  const value = ['get', 'value'];
  if (mode === 'bands') {
    const cases: unknown[] = ['case'];
    bands.breaks.forEach((limit, i) => cases.push(['<', value, limit], bands.colors[i]));
    cases.push(bands.colors[bands.colors.length - 1]);
    return cases;
  }
  const stops: unknown[] = ['interpolate', ['linear'], value];
  RAMP.forEach((colour, i) => stops.push(-range + (2 * range * i) / (RAMP.length - 1), colour));
  return stops;
}

/** Legend entries: a label and colour per band, or ramp stops. */
export function legendOf(mode: ColourMode, bands: SettlementBands, range: number): { label: string; color: string }[] {
  if (mode === 'bands') {
    return bands.colors.map((color, i) => {
      const from = bands.breaks[i - 1];
      const to = bands.breaks[i];
      const label = from === undefined ? `< ${to}` : to === undefined ? `≥ ${from}` : `${from} … ${to}`;
      return { label, color };
    });
  }
  return [0, 2, 5, 8, 10].map((i) => ({ label: `${Math.round((-range + (2 * range * i) / (RAMP.length - 1)) * 10) / 10}`, color: RAMP[i] }));
}

import * as echarts from 'echarts';
import { BASEMAP_PALETTE, BASEMAP_STREET_WIDTH, INCIDENT_KINDS, RISK_LEVEL_COLORS, RISK_LEVELS, type ReportBowl, type ReportMap, type ReportWords, type RiskReportFigures } from '@console/contract';

/** The font family the drawings name; the PDF maps it to the embedded CJK font, the page to the browser's. */
export const DRAWING_FONT = 'sans-serif';

/** An ECharts chart drawn without a browser (its server-side SVG renderer), as the console draws it. */
function chartSvg(option: echarts.EChartsCoreOption, width: number, height: number) {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption({ animation: false, textStyle: { fontFamily: DRAWING_FONT, fontSize: 11 }, ...option });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

/** The month's incidents by kind, a bar per kind stacked by level in the levels' colours. */
export function incidentsChart(figures: RiskReportFigures, words: ReportWords) {
  const kinds = INCIDENT_KINDS.filter((kind) => figures.incidents.byKind.some((row) => row.kind === kind));
  if (!kinds.length) return null;
  return chartSvg(
    {
      grid: { left: 110, right: 20, top: 30, bottom: 24 },
      legend: { top: 0, data: RISK_LEVELS.map((level) => words.levelName[level]) },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: kinds.map((kind) => words.kind[kind]), inverse: true },
      series: RISK_LEVELS.map((level) => ({
        name: words.levelName[level],
        type: 'bar',
        stack: 'level',
        itemStyle: { color: RISK_LEVEL_COLORS[level] },
        barMaxWidth: 22,
        data: kinds.map((kind) => figures.incidents.byKind.find((row) => row.kind === kind && row.level === level)?.count ?? 0),
      })),
    },
    500,
    Math.max(120, 46 + kinds.length * 30),
  );
}

/** The network's segments by level, as the risk screen's ring. */
export function networkChart(figures: RiskReportFigures, words: ReportWords) {
  if (!figures.network.segments) return null;
  return chartSvg(
    {
      legend: { orient: 'vertical', right: 10, top: 'middle' },
      series: [
        {
          type: 'pie',
          radius: ['45%', '75%'],
          center: ['38%', '50%'],
          // The shares are in the table below the ring.
          label: { show: false },
          data: RISK_LEVELS.map((level) => ({ name: words.levelName[level], value: figures.network.levels[level], itemStyle: { color: RISK_LEVEL_COLORS[level] } })),
        },
      ],
    },
    500,
    200,
  );
}

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The bowls on the console's light basemap: streets as its tiles draw them (casing, fill, main
 * streets wider and yellow), each bowl's outline in its level's colour and its code beside it.
 */
export function bowlsMap(map: ReportMap, bowls: ReportBowl[], width = 500): { svg: string; width: number; height: number } {
  const [minx, miny, maxx, maxy] = map.box;
  // Equirectangular at the box's middle latitude: true shapes at a city's scale.
  const kx = Math.cos((((miny + maxy) / 2) * Math.PI) / 180);
  const scale = width / ((maxx - minx) * kx);
  const height = Math.round(Math.min(420, Math.max(200, (maxy - miny) * scale)));
  const x = (lon: number) => ((lon - minx) * kx * scale).toFixed(1);
  const y = (lat: number) => (height / 2 - (lat - (miny + maxy) / 2) * scale).toFixed(1);
  const path = (points: number[][]) => points.map(([lon, lat], i) => `${i ? 'L' : 'M'}${x(lon)} ${y(lat)}`).join('');
  const palette = BASEMAP_PALETTE.light;
  const streets = (kind: 'street' | 'mainStreet', casing: boolean) =>
    map.streets
      .filter((s) => s.kind === kind)
      .map((s) => `<path d="${path(s.coordinates)}" fill="none" stroke="${casing ? '#d9d4cc' : palette[kind]}" stroke-width="${BASEMAP_STREET_WIDTH[kind] + (casing ? 2 : 0)}" stroke-linecap="round" stroke-linejoin="round"/>`)
      .join('');
  const rings = (geometry: ReportBowl['geometry']): number[][][] =>
    geometry.type === 'Polygon' ? (geometry.coordinates as number[][][]) : geometry.type === 'MultiPolygon' ? (geometry.coordinates as number[][][][]).flat() : [];
  const shapes = bowls
    .map((bowl) => {
      const colour = RISK_LEVEL_COLORS[bowl.level];
      const outline = rings(bowl.geometry);
      const points = outline.length ? outline.flat() : pointsOf(bowl.geometry);
      const [cx, cy] = [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
      const drawn = outline.length
        ? outline.map((ring) => `<path d="${path(ring)}Z" fill="${colour}" fill-opacity="0.35" stroke="${colour}" stroke-width="2"/>`).join('')
        : `<circle cx="${x(cx)}" cy="${y(cy)}" r="7" fill="${colour}" fill-opacity="0.5" stroke="${colour}" stroke-width="2"/>`;
      // A white halo under the code, drawn as its own text (PDF renderers do not all know paint-order).
      const label = (style: string) => `<text x="${x(cx)}" y="${y(cy)}" font-size="10" font-family="${DRAWING_FONT}" text-anchor="middle" ${style}>${escapeXml(bowl.code)}</text>`;
      return `${drawn}${label('fill="#ffffff" stroke="#ffffff" stroke-width="3"')}${label('fill="#262626"')}`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${palette.background}"/>${streets('street', true)}${streets('mainStreet', true)}${streets('street', false)}${streets('mainStreet', false)}${shapes}</svg>`;
  return { svg, width, height };
}

/** Every position of a point or line geometry. */
function pointsOf(geometry: ReportBowl['geometry']): number[][] {
  const flat = (value: unknown): number[][] => (Array.isArray(value) && typeof value[0] === 'number' ? [value as number[]] : Array.isArray(value) ? value.flatMap(flat) : []);
  return flat(geometry.coordinates);
}

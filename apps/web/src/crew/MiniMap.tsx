import { NETWORK_MAP_COLOR, RISK_LEVEL_COLORS, type CrewIncident, type NetworkType } from '@console/contract';
import { positionsOf } from './places.ts';

const WIDTH = 360;
const HEIGHT = 220;

/**
 * The incident's map, drawn from what the phone keeps (readable offline, no tiles): the pipes
 * around it in their network's colour, its alerts' pipes in their level's colour, its place dashed,
 * the crew's own position, and a scale.
 */
export function MiniMap({ incident, position }: { incident: CrewIncident; position: [number, number] | null }) {
  const around = positionsOf(incident.geometry).concat(incident.members.flatMap((m) => positionsOf(m.geometry)));
  let [minx, miny, maxx, maxy] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of around) (minx = Math.min(minx, x)), (miny = Math.min(miny, y)), (maxx = Math.max(maxx, x)), (maxy = Math.max(maxy, y));
  const lat0 = (miny + maxy) / 2;
  const mx = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  const my = 110_574;
  // At least 150 m across, with a margin: a single point is shown in its street.
  const spanM = Math.max(150, (maxx - minx) * mx * 1.4, (maxy - miny) * my * 1.4 * (WIDTH / HEIGHT));
  const scale = WIDTH / spanM;
  const [cx, cy] = [(minx + maxx) / 2, (miny + maxy) / 2];
  const xy = ([x, y]: number[]) => [WIDTH / 2 + (x - cx) * mx * scale, HEIGHT / 2 - (y - cy) * my * scale];
  const path = (shape: { coordinates: unknown; type: string }) =>
    (shape.type.includes('Polygon') ? (shape.coordinates as number[][][] | number[][][][]).flat(shape.type === 'MultiPolygon' ? 1 : 0) : shape.type === 'MultiLineString' ? (shape.coordinates as number[][][]) : [shape.coordinates as number[][]])
      .map((line) => (line as number[][]).map((p, i) => `${i ? 'L' : 'M'}${xy(p).map((v) => v.toFixed(1)).join(' ')}`).join(''))
      .join('');
  const here = position ? xy(position) : null;
  const inView = here && here[0] >= 0 && here[0] <= WIDTH && here[1] >= 0 && here[1] <= HEIGHT;
  const bar = [10, 20, 50, 100, 200, 500, 1000].find((m) => m * scale >= 50) ?? 1000;
  return (
    <svg className="crew-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={incident.code} data-testid="crew-map">
      <rect width={WIDTH} height={HEIGHT} fill="#f2efe9" />
      {incident.network.map((p) => (
        <path key={p.pipeId} d={path(p.geometry)} stroke={NETWORK_MAP_COLOR[p.networkType as NetworkType] ?? '#8c8c8c'} strokeOpacity={0.55} strokeWidth={2} fill="none" />
      ))}
      {incident.geometry.type.includes('Polygon') && <path d={path(incident.geometry)} fill={RISK_LEVEL_COLORS[incident.level]} fillOpacity={0.12} stroke={RISK_LEVEL_COLORS[incident.level]} strokeDasharray="6 4" strokeWidth={1.5} />}
      {incident.members.map((m) =>
        m.geometry.type === 'Point' ? (
          <circle key={m.id} cx={xy(m.geometry.coordinates as number[])[0]} cy={xy(m.geometry.coordinates as number[])[1]} r={7} fill={RISK_LEVEL_COLORS[m.level]} stroke="#fff" strokeWidth={2} />
        ) : (
          <path key={m.id} d={path(m.geometry)} stroke={RISK_LEVEL_COLORS[m.level]} strokeWidth={5} strokeLinecap="round" fill={m.geometry.type.includes('Polygon') ? RISK_LEVEL_COLORS[m.level] : 'none'} fillOpacity={0.25} />
        ),
      )}
      {inView && <circle cx={here[0]} cy={here[1]} r={6} fill="#1677ff" stroke="#fff" strokeWidth={2} data-testid="crew-map-you" />}
      <g transform={`translate(10 ${HEIGHT - 14})`}>
        <line x1={0} x2={bar * scale} y1={0} y2={0} stroke="#262626" strokeWidth={2} />
        <text x={bar * scale + 4} y={4} fontSize={11} fill="#262626">{bar >= 1000 ? `${bar / 1000} km` : `${bar} m`}</text>
      </g>
    </svg>
  );
}

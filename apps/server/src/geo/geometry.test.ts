import { describe, expect, it } from 'vitest';
import { circlePolygon, distanceM, lengthInside } from './geometry.ts';

const M_PER_DEG_LAT = 111_320;

describe('POI geometry', () => {
  const center = [120.2, 30.2];
  const circle = circlePolygon(center, 100);
  const east = (metres: number) => [center[0] + metres / (M_PER_DEG_LAT * Math.cos((center[1] * Math.PI) / 180)), center[1]];

  it('draws a closed 64-sided circle of the radius', () => {
    const ring = circle.type === 'Polygon' ? circle.coordinates[0] : [];
    expect(ring).toHaveLength(65);
    expect(ring[0]).toEqual(ring[64]);
    for (const p of ring) expect(distanceM(center, p)).toBeCloseTo(100, -1);
  });

  it('measures the part of a line inside: a diameter is 2r, a line outside 0, a half-inside line half', () => {
    // The 64-gon's chord through the centre is 2r (to within a fraction of a percent).
    expect(lengthInside({ type: 'LineString', coordinates: [east(-300), east(300)] }, circle)).toBeCloseTo(200, -1);
    expect(lengthInside({ type: 'LineString', coordinates: [east(150), east(300)] }, circle)).toBe(0);
    expect(lengthInside({ type: 'LineString', coordinates: [east(0), east(300)] }, circle)).toBeCloseTo(100, -1);
    // A line wholly inside counts whole, over several vertices and lines.
    const inside = lengthInside({ type: 'MultiLineString', coordinates: [[east(-50), east(0), east(50)], [east(-20), east(20)]] }, circle);
    expect(inside).toBeCloseTo(140, 0);
  });
});

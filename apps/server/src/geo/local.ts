/** WGS 84 ellipsoid. */
const A = 6_378_137;
const E2 = 0.006_694_379_990_14;

/**
 * Metres per degree of longitude and latitude at a latitude, on the ellipsoid (radii of curvature):
 * over the few tens of metres of a pipe buffer this matches geodesic distance to well under a
 * centimetre.
 */
export function metresPerDegree(latDeg: number): [number, number] {
  const phi = (latDeg * Math.PI) / 180;
  const w = 1 - E2 * Math.sin(phi) ** 2;
  const n = A / Math.sqrt(w);
  const m = (A * (1 - E2)) / w ** 1.5;
  return [(n * Math.cos(phi) * Math.PI) / 180, (m * Math.PI) / 180];
}

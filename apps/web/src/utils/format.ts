/** Metres as km with one decimal from 1 km on, else whole metres. */
export function formatLength(metres: number): string {
  return metres >= 1000 ? `${(metres / 1000).toFixed(1)} km` : `${Math.round(metres)} m`;
}

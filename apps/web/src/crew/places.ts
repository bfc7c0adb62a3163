import type { IncidentDetail } from '@console/contract';

/** Metres between two lon/lat positions (haversine on the mean Earth radius: ranking and "how far", not survey). */
export function distanceM(a: [number, number], b: [number, number]) {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/**
 * Links that open navigation to the incident in the phone's own map app: the geo: URI (Android
 * and most apps), AMap and Baidu Maps (told the position is WGS 84, as the console keeps it).
 */
export function navigationLinks(incident: Pick<IncidentDetail, 'lon' | 'lat' | 'code'>) {
  const { lon, lat, code } = incident;
  const name = encodeURIComponent(code);
  return {
    phone: `geo:${lat},${lon}?q=${lat},${lon}(${name})`,
    amap: `https://uri.amap.com/navigation?to=${lon},${lat},${name}&mode=car&coordinate=wgs84&callnative=1`,
    baidu: `https://api.map.baidu.com/direction?destination=latlng:${lat},${lon}|name:${name}&coord_type=wgs84&mode=driving&output=html&src=webapp.pipeline-risk`,
  };
}

/** Every position of a GeoJSON shape. */
export function positionsOf(shape: { coordinates: unknown }): number[][] {
  const out: number[][] = [];
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number') out.push(c as number[]);
    else c.forEach(walk);
  };
  walk(shape.coordinates);
  return out;
}

import proj4 from 'proj4';
import { crsName } from '@console/contract';

/** What a file says of its coordinate system. */
export interface DetectedCrs {
  /** EPSG code when recognised. */
  srid: number | null;
  /** The name the file gives (or the EPSG name). */
  name: string;
  /** A proj4 definition (proj string or WKT) to reproject with; null when it cannot be read. */
  definition: string | null;
}

/** proj4 definition of an EPSG code crsName knows. CGCS2000 is taken as WGS 84 (they differ by centimetres). */
export function projDefinition(srid: number): string | null {
  if (crsName(srid) === null) return null;
  if (srid === 4326 || srid === 4490) return '+proj=longlat +datum=WGS84 +no_defs';
  if (srid === 3857) return 'EPSG:3857';
  if (srid === 3035) return '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
  if (srid >= 32601 && srid <= 32660) return `+proj=utm +zone=${srid - 32600} +datum=WGS84 +units=m +no_defs`;
  if (srid >= 32701 && srid <= 32760) return `+proj=utm +zone=${srid - 32700} +south +datum=WGS84 +units=m +no_defs`;
  const gk = (centralMeridian: number, falseEasting: number) =>
    `+proj=tmerc +lat_0=0 +lon_0=${centralMeridian} +k=1 +x_0=${falseEasting} +y_0=0 +ellps=GRS80 +units=m +no_defs`;
  if (srid <= 4501) return gk(75 + (srid - 4491) * 6, (srid - 4491 + 13) * 1e6 + 500000);
  if (srid <= 4512) return gk(75 + (srid - 4502) * 6, 500000);
  if (srid <= 4533) return gk(75 + (srid - 4513) * 3, (srid - 4513 + 25) * 1e6 + 500000);
  return gk(75 + (srid - 4534) * 3, 500000);
}

export function crsOfSrid(srid: number): DetectedCrs | null {
  const definition = projDefinition(srid);
  return definition ? { srid, name: crsName(srid)!, definition } : null;
}

/**
 * The EPSG code of a .prj (OGC or Esri WKT): its AUTHORITY when given, else the names Esri and
 * GDAL write for the systems we know.
 */
function sridOfPrj(wkt: string, name: string): number | null {
  const authority = /AUTHORITY\["EPSG",\s*"?(\d+)"?\]\]\s*$/i.exec(wkt.trim());
  if (authority && crsName(Number(authority[1]))) return Number(authority[1]);
  const n = name.toLowerCase().replace(/[\s-]+/g, '_');
  if (/^(gcs_)?wgs_?(19)?84$/.test(n)) return 4326;
  if (/^(gcs_)?(china_geodetic_coordinate_system_2000|cgcs_?2000)$/.test(n)) return 4490;
  if (n.includes('web_mercator') || n.includes('pseudo_mercator')) return 3857;
  let m = /^wgs_(19)?84_(?:\/_)?utm_zone_(\d+)([ns])$/.exec(n);
  if (m) return (m[3] === 'n' ? 32600 : 32700) + Number(m[2]);
  m = /^cgcs_?2000_(?:\/_)?3_degree_gauss?_(?:kruger_)?(?:gk_)?(cm_(\d+)e|zone_(\d+))$/.exec(n.replace('_gk_', '_gauss_'));
  if (m) return m[2] ? 4534 + (Number(m[2]) - 75) / 3 : 4513 + Number(m[3]) - 25;
  m = /^cgcs_?2000_(?:\/_)?gauss?_(?:kruger_)?(?:gk_)?(cm_(\d+)e|zone_(\d+))$/.exec(n.replace('_gk_', '_gauss_'));
  if (m) return m[2] ? 4502 + (Number(m[2]) - 75) / 6 : 4491 + Number(m[3]) - 13;
  return null;
}

export function crsFromPrj(wkt: string): DetectedCrs {
  const name = /^\s*(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS)\["([^"]+)"/i.exec(wkt)?.[1] ?? wkt.slice(0, 60);
  const srid = sridOfPrj(wkt, name);
  if (srid !== null && crsName(srid) !== null) return { srid, name, definition: projDefinition(srid) };
  try {
    proj4(wkt, 'EPSG:4326').forward([0, 0]);
    return { srid: null, name, definition: wkt };
  } catch {
    return { srid: null, name, definition: null };
  }
}

/** GeoJSON's (legacy) crs member: "EPSG:4490", "urn:ogc:def:crs:EPSG::3857", "urn:ogc:def:crs:OGC:1.3:CRS84". */
export function crsFromName(name: string): DetectedCrs {
  if (/CRS84$/i.test(name)) return crsOfSrid(4326)!;
  const code = /EPSG:{1,2}(\d+)$/i.exec(name)?.[1];
  return (code && crsOfSrid(Number(code))) || { srid: null, name, definition: null };
}

export type Reproject = (x: number, y: number) => [number, number];

/** Positions already in longitude/latitude: readers may keep a 2-D position as it is instead of calling this. */
export const keepLonLat: Reproject = (x, y) => [x, y];

/** Longitude/latitude (WGS 84) of a position in the given system. */
export function reprojectToWgs84(crs: DetectedCrs): Reproject {
  if (crs.srid === 4326 || crs.srid === 4490) return keepLonLat;
  const converter = proj4(crs.definition!, 'EPSG:4326');
  return (x, y) => converter.forward([x, y]) as [number, number];
}

import proj4 from 'proj4';

/**
 * Coordinate reference systems the features are offered in (OGC API Features Part 2). Stored
 * coordinates are WGS84 longitude/latitude (CRS84). EPSG:4326 and EPSG:4490 (CGCS2000, which
 * differs from WGS84 by centimetres: taken as equal, as the importers do) have latitude first.
 */
export interface Crs {
  uri: string;
  /** A stored [lon, lat] in this CRS's own axis order and units. */
  fromStorage(lon: number, lat: number): [number, number];
  /** This CRS's [first, second] axis values as [lon, lat]. */
  toStorage(a: number, b: number): [number, number];
}

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const epsg = (code: number) => `http://www.opengis.net/def/crs/EPSG/0/${code}`;
const mercator = proj4('EPSG:4326', 'EPSG:3857');
const latFirst = (uri: string): Crs => ({ uri, fromStorage: (lon, lat) => [lat, lon], toStorage: (a, b) => [b, a] });

export const CRS_LIST: Crs[] = [
  { uri: CRS84, fromStorage: (lon, lat) => [lon, lat], toStorage: (a, b) => [a, b] },
  latFirst(epsg(4326)),
  latFirst(epsg(4490)),
  {
    uri: epsg(3857),
    fromStorage: (lon, lat) => mercator.forward([lon, lat]) as [number, number],
    toStorage: (x, y) => mercator.inverse([x, y]) as [number, number],
  },
];
export const CRS_URIS = CRS_LIST.map((c) => c.uri);

/** The CRS named by a URI (or its EPSG:nnnn / CRS84 short form), or undefined. */
export function crsOf(name: string): Crs | undefined {
  const short = /^EPSG:(\d+)$/i.exec(name);
  const uri = short ? epsg(Number(short[1])) : name === 'CRS84' || name === 'OGC:CRS84' ? CRS84 : name;
  return CRS_LIST.find((c) => c.uri === uri);
}

type Coordinates = number[] | Coordinates[];

/** The geometry's coordinates taken from storage into `crs`. */
export function reprojectGeometry(geometry: { type: string; coordinates: Coordinates }, crs: Crs) {
  const walk = (c: Coordinates): Coordinates => (typeof c[0] === 'number' ? crs.fromStorage(c[0], c[1] as number) : (c as Coordinates[]).map(walk));
  return { type: geometry.type, coordinates: walk(geometry.coordinates) };
}

import { eq, sql } from 'drizzle-orm';
import type { LineGeometry, MeasuredPipe, NetworkType } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { bboxBox, pipes } from '../../db/schema.ts';
import { boxSql } from '../../geo/sql.ts';
import { closest, grownBox, localFrame, placeCentre, type Place } from '../../geo/proximity.ts';

/** How many places one query asks about: one round trip for many sites, a VALUES list the planner joins by index. */
const PLACES_PER_QUERY = 200;

interface CandidateRow {
  place: number;
  id: number;
  pipe_id: string;
  network_type: NetworkType;
  pressure_class: string | null;
  diameter_mm: number | null;
  length_m: number;
  geometry: LineGeometry;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/**
 * The pipes within `radiusM` of each place (from its edge; 0 inside), nearest first, each with its
 * distance and the closest points. The GiST box index narrows the candidates (the place's box
 * grown by the radius); the exact distance is measured here on the ground (geo/proximity.ts).
 */
export async function pipesNear(db: Db, enterpriseId: number, places: Place[], radiusM: number): Promise<MeasuredPipe[][]> {
  const found: MeasuredPipe[][] = places.map(() => []);
  for (let start = 0; start < places.length; start += PLACES_PER_QUERY) {
    const chunk = places.slice(start, start + PLACES_PER_QUERY);
    const boxes = sql.join(chunk.map((place, i) => sql`(${start + i}::int, ${boxSql(grownBox(place, radiusM))})`), sql`, `);
    const rows = await queryRows<CandidateRow>(
      db,
      sql`select s.place, ${pipes.id} as id, ${pipes.pipeId} as pipe_id, ${pipes.networkType} as network_type, ${pipes.pressureClass} as pressure_class,
            ${pipes.diameterMm} as diameter_mm, ${pipes.lengthM} as length_m, ${pipes.geometry} as geometry
          from (values ${boxes}) as s(place, b)
          join ${pipes} on ${eq(pipes.enterpriseId, enterpriseId)} and ${bboxBox(pipes)} && s.b`,
    );
    const frames = chunk.map((place) => localFrame(placeCentre(place)));
    for (const row of rows) {
      const i = Number(row.place);
      const geometry = typeof row.geometry === 'string' ? (JSON.parse(row.geometry) as LineGeometry) : row.geometry;
      const c = closest(places[i], geometry, frames[i - start]);
      if (c.distanceM > radiusM) continue;
      found[i].push({
        pipeRowId: Number(row.id),
        pipeId: row.pipe_id,
        networkType: row.network_type,
        pressureClass: row.pressure_class,
        diameterMm: row.diameter_mm === null ? null : Number(row.diameter_mm),
        lengthM: Math.round(Number(row.length_m) * 10) / 10,
        distanceM: round3(c.distanceM),
        from: [round7(c.from[0]), round7(c.from[1])],
        to: [round7(c.to[0]), round7(c.to[1])],
      });
    }
  }
  for (const list of found) list.sort((a, b) => a.distanceM - b.distanceM || a.pipeRowId - b.pipeRowId);
  return found;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { SettlementDataset, SettlementRunProfile } from '@console/contract';
import { as, login, useDemoServer } from '../testing/app.ts';
import { MIGRATIONS_FOLDER, queryRows } from '../db/client.ts';
import { lengthM } from './geometry.ts';

const demo = useDemoServer();

/** WGS 84 by the textbook (independent of the code under test). */
const A = 6378137, F = 1 / 298.257223563, E2 = F * (2 - F);
const rad = (d: number) => (d * Math.PI) / 180;
/** A parallel's arc: N cos(phi) dLambda, which the geodesic between two points on it matches to micrometres over a few hundred metres. */
const parallelArc = (lat: number, dLon: number) => (A / Math.sqrt(1 - E2 * Math.sin(rad(lat)) ** 2)) * Math.cos(rad(lat)) * rad(dLon);
/** A meridian's arc by its series (Helmert), exact to well under a millimetre. */
const meridianArc = (lat1: number, lat2: number) => {
  const n = F / (2 - F);
  const m = (phi: number) =>
    (A / (1 + n)) * ((1 + n ** 2 / 4 + n ** 4 / 64) * phi - ((3 * n) / 2 - (3 * n ** 3) / 16) * Math.sin(2 * phi) + ((15 * n ** 2) / 16 - (15 * n ** 4) / 64) * Math.sin(4 * phi) - ((35 * n ** 3) / 48) * Math.sin(6 * phi));
  return m(rad(lat2)) - m(rad(lat1));
};

describe('one length of a pipe, on the WGS 84 ellipsoid, everywhere', () => {
  it('measures along a parallel and along a meridian as the ellipsoid does (not the sphere: 178.0 m there is 177.45 m here)', () => {
    // 0.00185 degrees of longitude at 30.2 N: about 178 m.
    const east = lengthM({ type: 'LineString', coordinates: [[120.2, 30.2], [120.20185, 30.2]] });
    expect(Math.abs(east - parallelArc(30.2, 0.00185))).toBeLessThan(0.001);
    const north = lengthM({ type: 'LineString', coordinates: [[120.2, 30.2], [120.2, 30.209], [120.2, 30.218]] });
    expect(Math.abs(north - meridianArc(30.2, 30.218))).toBeLessThan(0.001);
  });

  it('keeps the same length in the list, in the settlement run profile, and in what the migration wrote for pipes stored before', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const [dataset] = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result as SettlementDataset[];
    const flagged = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results?level=alarm&pageSize=5` })).json().result.list as { pipeRowId: number; pipeId: string }[];
    for (const result of flagged) {
      const run = (await api({ method: 'GET', url: `/api/settlement/datasets/${dataset.id}/results/${result.pipeRowId}/run` })).json().result as SettlementRunProfile;
      for (const segment of run.segments) {
        const listed = (await api({ method: 'GET', url: `/api/pipelines?keyword=${segment.pipeId}` })).json().result.list.find((p: { pipeId: string }) => p.pipeId === segment.pipeId);
        expect(Math.abs(segment.toM - segment.fromM - listed.lengthM)).toBeLessThan(0.02);
      }
    }

    // The migration's statement gives every stored pipe the length Node gives it.
    const db = demo.database.db;
    await db.execute(sql`update pipes set length_m = 0 where enterprise_id = ${demo.ids.water}`);
    const statement = readFileSync(join(MIGRATIONS_FOLDER, '0029_pipe_length_on_ellipsoid.sql'), 'utf8').split('--> statement-breakpoint')[0];
    await db.execute(sql.raw(statement));
    const rows = await queryRows<{ geometry: never; length_m: number }>(db, sql`select geometry, length_m from pipes where enterprise_id = ${demo.ids.water}`);
    expect(rows.length).toBeGreaterThan(1000);
    const worst = Math.max(...rows.map((r) => Math.abs(Number(r.length_m) - lengthM(typeof r.geometry === 'string' ? JSON.parse(r.geometry) : r.geometry))));
    expect(worst).toBeLessThan(0.006);
  });
});

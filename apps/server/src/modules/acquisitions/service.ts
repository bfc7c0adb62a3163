import { and, asc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { AcquisitionInput, AreaGeometry } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { acquisitions, projects } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { areasIntersect, bboxColumns, bboxOf, pointInArea } from '../../geo/geometry.ts';
import { assertProject } from '../projects/service.ts';

type Acquisition = typeof acquisitions.$inferSelect;

/** The enterprise's projects whose area the footprint covers (computed, never stored). */
async function linkedProjects(db: Db, enterpriseId: number, rows: Acquisition[]) {
  const areas = await db.select({ id: projects.id, name: projects.name, area: projects.area }).from(projects).where(eq(projects.enterpriseId, enterpriseId));
  return rows.map(({ minx, miny, maxx, maxy, enterpriseId: _, ...row }) => ({
    ...row,
    bbox: [minx, miny, maxx, maxy],
    projects: areas.filter((p) => areasIntersect(p.area as AreaGeometry, row.footprint as AreaGeometry)).map((p) => ({ id: p.id, name: p.name })),
  }));
}

export async function listAcquisitions(db: Db, enterpriseId: number, q: { from?: string; to?: string; status?: Acquisition['status']; projectId?: number }) {
  const where: SQL[] = [eq(acquisitions.enterpriseId, enterpriseId)];
  if (q.from) where.push(gte(acquisitions.acquiredAt, new Date(q.from)));
  if (q.to) where.push(lte(acquisitions.acquiredAt, new Date(q.to)));
  if (q.status) where.push(eq(acquisitions.status, q.status));
  const rows = await db.select().from(acquisitions).where(and(...where)).orderBy(asc(acquisitions.acquiredAt));
  const list = await linkedProjects(db, enterpriseId, rows);
  if (q.projectId === undefined) return list;
  await assertProject(db, enterpriseId, q.projectId); // 404 for a project of another enterprise
  return list.filter((a) => a.projects.some((p) => p.id === q.projectId));
}

export async function getAcquisition(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select().from(acquisitions).where(and(eq(acquisitions.id, id), eq(acquisitions.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.acquisition');
  return (await linkedProjects(db, enterpriseId, [row]))[0];
}

const toRow = (input: AcquisitionInput) => ({ ...input, acquiredAt: new Date(input.acquiredAt), ...bboxColumns(bboxOf(input.footprint)) });

export async function saveAcquisition(db: Db, enterpriseId: number, input: AcquisitionInput, id?: number) {
  try {
    if (id === undefined) {
      const [row] = await db.insert(acquisitions).values({ ...toRow(input), enterpriseId }).returning({ id: acquisitions.id });
      return getAcquisition(db, enterpriseId, row.id);
    }
    const updated = await db.update(acquisitions).set(toRow(input)).where(and(eq(acquisitions.id, id), eq(acquisitions.enterpriseId, enterpriseId))).returning({ id: acquisitions.id });
    if (!updated.length) throw notFound('notFound.acquisition');
    return getAcquisition(db, enterpriseId, id);
  } catch (error) {
    if (uniqueViolation(error)) throw conflict('conflict.productId');
    throw error;
  }
}

export async function deleteAcquisition(db: Db, enterpriseId: number, id: number) {
  const deleted = await db.delete(acquisitions).where(and(eq(acquisitions.id, id), eq(acquisitions.enterpriseId, enterpriseId))).returning({ id: acquisitions.id });
  if (!deleted.length) throw notFound('notFound.acquisition');
}

/** Share of an area inside any of the footprints, by a 24 x 24 grid of sample points over the area. */
function coveredShare(area: AreaGeometry, footprints: AreaGeometry[]): number {
  const [minx, miny, maxx, maxy] = bboxOf(area);
  let inside = 0;
  let covered = 0;
  for (let i = 0; i < 24; i++) {
    for (let j = 0; j < 24; j++) {
      const p = [minx + ((i + 0.5) / 24) * (maxx - minx), miny + ((j + 0.5) / 24) * (maxy - miny)];
      if (!pointInArea(p, area)) continue;
      inside++;
      if (footprints.some((f) => pointInArea(p, f))) covered++;
    }
  }
  return inside ? Math.round((covered / inside) * 1000) / 1000 : 0;
}

/**
 * Each project's satellite coverage: the share of its area inside the footprints of scenes taken
 * (not planned or failed), and its last and next acquisition.
 */
export async function projectCoverage(db: Db, enterpriseId: number, now = new Date()) {
  const list = await listAcquisitions(db, enterpriseId, {});
  const areas = await db.select({ id: projects.id, name: projects.name, code: projects.code, area: projects.area }).from(projects).where(eq(projects.enterpriseId, enterpriseId)).orderBy(asc(projects.id));
  return areas.map((project) => {
    const mine = list.filter((a) => a.projects.some((p) => p.id === project.id));
    const taken = mine.filter((a) => a.status !== 'planned' && a.status !== 'failed' && a.acquiredAt <= now);
    const upcoming = mine.filter((a) => a.status === 'planned' || a.acquiredAt > now);
    return {
      projectId: project.id,
      name: project.name,
      code: project.code,
      coveredShare: coveredShare(project.area as AreaGeometry, taken.map((a) => a.footprint as AreaGeometry)),
      acquisitions: mine.length,
      last: taken.at(-1) ? { id: taken.at(-1)!.id, acquiredAt: taken.at(-1)!.acquiredAt, satellite: taken.at(-1)!.satellite } : null,
      next: upcoming[0] ? { id: upcoming[0].id, acquiredAt: upcoming[0].acquiredAt, satellite: upcoming[0].satellite } : null,
    };
  });
}

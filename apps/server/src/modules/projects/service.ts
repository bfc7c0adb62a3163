import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AreaGeometry, ProjectInput } from '@console/contract';
import type { Db, Tx } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { projects } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf } from '../../geo/geometry.ts';
import { pipeLengthInArea } from '../pipelines/queries.ts';
import { poiCountsByProject } from '../leaks/service.ts';
import { pipesVersion } from '../tiles/service.ts';
import { likePattern } from '../../db/like.ts';


function toRow(input: ProjectInput) {
  return {
    name: input.name,
    code: input.code,
    city: input.city,
    district: input.district ?? null,
    area: input.area,
    ...bboxColumns(bboxOf(input.area)),
    networkTypes: input.networkTypes,
    startDate: input.startDate ?? null,
    endDate: input.endDate ?? null,
    status: input.status,
    description: input.description ?? null,
    // A new area is measured again at the next read.
    pipeLengthVersion: null,
  };
}

function rethrowConflict(error: unknown): never {
  if (uniqueViolation(error)) throw conflict('conflict.projectCode');
  throw error;
}

/** The enterprise's projects with their key figures (pipe length in the area by network type). */
export async function listProjects(db: Db, enterpriseId: number, filter: { keyword?: string; status?: 'planned' | 'active' | 'closed' }) {
  const conditions: SQL[] = [eq(projects.enterpriseId, enterpriseId)];
  if (filter.status) conditions.push(eq(projects.status, filter.status));
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    conditions.push(or(ilike(projects.name, pattern), ilike(projects.code, pattern), ilike(projects.city, pattern))!);
  }
  const rows = await db.select().from(projects).where(and(...conditions)).orderBy(asc(projects.id));
  return withFigures(db, enterpriseId, rows);
}

/**
 * Key figures of projects: pipe length in the area by network type, POIs by status. The length
 * is kept on the project with the pipes version it was measured at, and measured again (in SQL)
 * only after the network or the area changed, so a list costs the same whatever the network size.
 */
async function withFigures(db: Db, enterpriseId: number, rows: (typeof projects.$inferSelect)[]) {
  const poiCounts = await poiCountsByProject(db, enterpriseId, rows.map((row) => row.id));
  // Read before measuring: a change made meanwhile bumps the version, and is measured next time.
  const version = await pipesVersion(db, enterpriseId);
  const figures = [];
  for (const row of rows) {
    let pipeLengthM = row.pipeLengthM;
    if (row.pipeLengthVersion !== version || !pipeLengthM) {
      pipeLengthM = await pipeLengthInArea(db, enterpriseId, row.area as AreaGeometry);
      await db.update(projects).set({ pipeLengthM, pipeLengthVersion: version }).where(eq(projects.id, row.id));
    }
    figures.push({ ...present(row), pipeLengthM, poiCounts: poiCounts.get(row.id) ?? {} });
  }
  return figures;
}

function present(row: typeof projects.$inferSelect) {
  const { enterpriseId: _, minx, miny, maxx, maxy, pipeLengthVersion: __, ...rest } = row;
  return { ...rest, bbox: [minx, miny, maxx, maxy] };
}

const projectOf = (enterpriseId: number, id: number) => and(eq(projects.id, id), eq(projects.enterpriseId, enterpriseId));

/** Checks that the enterprise has the project (404 otherwise), reading nothing else of it: for a record or a request that names one. */
export async function assertProject(db: Db | Tx, enterpriseId: number, id: number): Promise<void> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(projectOf(enterpriseId, id));
  if (!row) throw notFound('notFound.project');
}

/** The enterprise's project's area, without the figures getProject works out; undefined when it has no such project. */
export async function findProjectArea(db: Db | Tx, enterpriseId: number, id: number): Promise<AreaGeometry | undefined> {
  const [row] = await db.select({ area: projects.area }).from(projects).where(projectOf(enterpriseId, id));
  return row?.area as AreaGeometry | undefined;
}

/** The area that narrows a list to a project: 404 when the enterprise has no such project. */
export async function projectArea(db: Db | Tx, enterpriseId: number, id: number): Promise<AreaGeometry> {
  const area = await findProjectArea(db, enterpriseId, id);
  if (!area) throw notFound('notFound.project');
  return area;
}

/** A project with its figures (pipe length by network, POI counts). */
export async function getProject(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select().from(projects).where(projectOf(enterpriseId, id));
  if (!row) throw notFound('notFound.project');
  const [project] = await withFigures(db, enterpriseId, [row]);
  return project;
}

export async function createProject(db: Db, enterpriseId: number, userId: number, input: ProjectInput) {
  try {
    const [row] = await db.insert(projects).values({ ...toRow(input), enterpriseId, createdBy: userId }).returning({ id: projects.id });
    return getProject(db, enterpriseId, row.id);
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function updateProject(db: Db, enterpriseId: number, id: number, input: ProjectInput) {
  try {
    const updated = await db
      .update(projects)
      .set({ ...toRow(input), updatedAt: new Date() })
      .where(and(eq(projects.id, id), eq(projects.enterpriseId, enterpriseId)))
      .returning({ id: projects.id });
    if (updated.length === 0) throw notFound('notFound.project');
  } catch (error) {
    rethrowConflict(error);
  }
  return getProject(db, enterpriseId, id);
}

export async function deleteProject(db: Db, enterpriseId: number, id: number) {
  const deleted = await db
    .delete(projects)
    .where(and(eq(projects.id, id), eq(projects.enterpriseId, enterpriseId)))
    .returning({ id: projects.id });
  if (deleted.length === 0) throw notFound('notFound.project');
}

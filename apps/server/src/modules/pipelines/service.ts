import { and, asc, eq, gte, ilike, lte, sql, type SQL } from 'drizzle-orm';
import type { AreaGeometry, PipeInput, PipeListQuery } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { pipes, projects } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf, lengthM } from '../../geo/geometry.ts';
import { pipeInsideArea } from './queries.ts';
import { bumpPipesVersion } from '../tiles/service.ts';

const columns = {
  id: pipes.id,
  pipeId: pipes.pipeId,
  networkType: pipes.networkType,
  material: pipes.material,
  diameterMm: pipes.diameterMm,
  pressureClass: pipes.pressureClass,
  installYear: pipes.installYear,
  depthM: pipes.depthM,
  owner: pipes.owner,
  lengthM: pipes.lengthM,
  geometry: pipes.geometry,
  updatedAt: pipes.updatedAt,
};

/** Filters the pipe table understands, all scoped to one enterprise. */
async function conditions(db: Db, enterpriseId: number, q: PipeListQuery) {
  const where: SQL[] = [eq(pipes.enterpriseId, enterpriseId)];
  if (q.keyword) where.push(ilike(pipes.pipeId, `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (q.networkType) where.push(eq(pipes.networkType, q.networkType));
  if (q.material) where.push(eq(pipes.material, q.material));
  if (q.diameterMin !== undefined) where.push(gte(pipes.diameterMm, q.diameterMin));
  if (q.diameterMax !== undefined) where.push(lte(pipes.diameterMm, q.diameterMax));
  if (q.installYearMin !== undefined) where.push(gte(pipes.installYear, q.installYearMin));
  if (q.installYearMax !== undefined) where.push(lte(pipes.installYear, q.installYearMax));
  if (q.projectId !== undefined) {
    const [project] = await db.select({ area: projects.area }).from(projects).where(and(eq(projects.id, q.projectId), eq(projects.enterpriseId, enterpriseId)));
    if (!project) throw notFound('notFound.project');
    where.push(pipeInsideArea(project.area as AreaGeometry));
  }
  return and(...where)!;
}

/** A page of the enterprise's pipes matching the filters, with the total count. */
export async function listPipes(db: Db, enterpriseId: number, q: PipeListQuery) {
  const where = await conditions(db, enterpriseId, q);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(pipes).where(where);
  const list = await db.select(columns).from(pipes).where(where).orderBy(asc(pipes.pipeId)).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  return { list, total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** Every pipe matching the filters (no paging), for exports. */
export async function allPipes(db: Db, enterpriseId: number, q: PipeListQuery) {
  return db.select(columns).from(pipes).where(await conditions(db, enterpriseId, q)).orderBy(asc(pipes.pipeId));
}

/** Values to offer in the filters: materials in use. */
export async function pipeFacets(db: Db, enterpriseId: number) {
  const rows = await db
    .selectDistinct({ material: pipes.material })
    .from(pipes)
    .where(and(eq(pipes.enterpriseId, enterpriseId), sql`${pipes.material} is not null`))
    .orderBy(asc(pipes.material));
  return { materials: rows.map((r) => r.material!) };
}

export async function getPipe(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select(columns).from(pipes).where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.pipe');
  return row;
}

/** The stored row of a pipe: its attributes with computed length and bounding box. */
export function pipeRow(input: PipeInput) {
  return {
    pipeId: input.pipeId,
    networkType: input.networkType,
    material: input.material ?? null,
    diameterMm: input.diameterMm ?? null,
    pressureClass: input.pressureClass ?? null,
    installYear: input.installYear ?? null,
    depthM: input.depthM ?? null,
    owner: input.owner ?? null,
    geometry: input.geometry,
    lengthM: Math.round(lengthM(input.geometry) * 100) / 100,
    ...bboxColumns(bboxOf(input.geometry)),
  };
}

function rethrowConflict(error: unknown): never {
  if (uniqueViolation(error)) throw conflict('conflict.pipeId');
  throw error;
}

export async function createPipe(db: Db, enterpriseId: number, input: PipeInput) {
  try {
    const [row] = await db.insert(pipes).values({ ...pipeRow(input), enterpriseId }).returning({ id: pipes.id });
    await bumpPipesVersion(db, enterpriseId);
    return getPipe(db, enterpriseId, row.id);
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function updatePipe(db: Db, enterpriseId: number, id: number, input: PipeInput) {
  try {
    const updated = await db
      .update(pipes)
      .set({ ...pipeRow(input), updatedAt: new Date() })
      .where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId)))
      .returning({ id: pipes.id });
    if (updated.length === 0) throw notFound('notFound.pipe');
  } catch (error) {
    rethrowConflict(error);
  }
  await bumpPipesVersion(db, enterpriseId);
  return getPipe(db, enterpriseId, id);
}

export async function deletePipe(db: Db, enterpriseId: number, id: number) {
  const deleted = await db.delete(pipes).where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId))).returning({ id: pipes.id });
  if (deleted.length === 0) throw notFound('notFound.pipe');
  await bumpPipesVersion(db, enterpriseId);
}

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { poiEvents, poiPhotos, pois } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/uploads.ts';

/** Image types a photo may be, told by the file's first bytes (not by its name or the browser's say). */
const IMAGE_TYPES = [
  { mimetype: 'image/jpeg', ext: 'jpg', test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimetype: 'image/png', ext: 'png', test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mimetype: 'image/webp', ext: 'webp', test: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { mimetype: 'image/heic', ext: 'heic', test: (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /^(heic|heix|mif1|msf1)$/.test(b.subarray(8, 12).toString('latin1')) },
];

async function imageTypeOf(path: string) {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(16);
    await handle.read(head, 0, 16, 0);
    return IMAGE_TYPES.find((t) => t.test(head));
  } finally {
    await handle.close();
  }
}

export const photoColumns = { id: poiPhotos.id, fileName: poiPhotos.fileName, mimetype: poiPhotos.mimetype, size: poiPhotos.size, uploadedAt: poiPhotos.uploadedAt };

export async function listPhotos(db: Db, enterpriseId: number, poiId: number) {
  return db.select(photoColumns).from(poiPhotos).where(and(eq(poiPhotos.poiId, poiId), eq(poiPhotos.enterpriseId, enterpriseId))).orderBy(asc(poiPhotos.id));
}

/** Keeps an uploaded photo of a POI: JPEG, PNG, WebP or HEIC, up to the photo limit. */
export async function addPhoto(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, userId: number, poiId: number, upload: UploadedFile) {
  const [poi] = await db.select({ id: pois.id, status: pois.status }).from(pois).where(and(eq(pois.id, poiId), eq(pois.enterpriseId, enterpriseId)));
  if (!poi) throw notFound('notFound.poi');
  if (upload.size > limitBytes) throw new AppError(413, 'photo.tooLarge', { mb: Math.round(limitBytes / 1024 / 1024) });
  const type = await imageTypeOf(upload.path);
  if (!type) throw badRequest('photo.type');
  const relative = join('photos', String(enterpriseId), `${randomUUID()}.${type.ext}`);
  await mkdir(join(dataDir, 'photos', String(enterpriseId)), { recursive: true });
  await rename(upload.path, join(dataDir, relative));
  try {
    const [photo] = await db
      .insert(poiPhotos)
      .values({ enterpriseId, poiId, fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: userId })
      .returning(photoColumns);
    await db.insert(poiEvents).values({ poiId, userId, action: 'photo', fromStatus: poi.status, toStatus: poi.status, details: { fileName: upload.filename } });
    return photo;
  } catch (error) {
    await rm(join(dataDir, relative), { force: true });
    throw error;
  }
}

/** The photo's file, for the answer; only within its enterprise. */
export async function photoFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [photo] = await db.select().from(poiPhotos).where(and(eq(poiPhotos.id, id), eq(poiPhotos.enterpriseId, enterpriseId)));
  if (!photo) throw notFound('notFound.photo');
  return { photo, stream: createReadStream(join(dataDir, photo.path)) };
}

export async function deletePhoto(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [photo] = await db.delete(poiPhotos).where(and(eq(poiPhotos.id, id), eq(poiPhotos.enterpriseId, enterpriseId))).returning();
  if (!photo) throw notFound('notFound.photo');
  await rm(join(dataDir, photo.path), { force: true });
}

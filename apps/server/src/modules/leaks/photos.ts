import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { poiEvents, poiPhotos, pois } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { IMAGE_TYPES, keepUpload, keptFileStream, removeKeptFiles } from '../../http/keptFiles.ts';
import type { UploadedFile } from '../../http/uploads.ts';

export const photoColumns = { id: poiPhotos.id, fileName: poiPhotos.fileName, mimetype: poiPhotos.mimetype, size: poiPhotos.size, uploadedAt: poiPhotos.uploadedAt };

export async function listPhotos(db: Db, enterpriseId: number, poiId: number) {
  return db.select(photoColumns).from(poiPhotos).where(and(eq(poiPhotos.poiId, poiId), eq(poiPhotos.enterpriseId, enterpriseId))).orderBy(asc(poiPhotos.id));
}

/** Keeps an uploaded photo of a POI: JPEG, PNG, WebP or HEIC, up to the photo limit. */
export async function addPhoto(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, userId: number, poiId: number, upload: UploadedFile) {
  const [poi] = await db.select({ id: pois.id, status: pois.status }).from(pois).where(and(eq(pois.id, poiId), eq(pois.enterpriseId, enterpriseId)));
  if (!poi) throw notFound('notFound.poi');
  return keepUpload(dataDir, 'photos', enterpriseId, upload, { limitBytes, types: IMAGE_TYPES, typeError: badRequest('photo.type') }, async ({ relative, type }) => {
    const [photo] = await db
      .insert(poiPhotos)
      .values({ enterpriseId, poiId, fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: userId })
      .returning(photoColumns);
    await db.insert(poiEvents).values({ poiId, userId, action: 'photo', fromStatus: poi.status, toStatus: poi.status, details: { fileName: upload.filename } });
    return photo;
  });
}

/** The photo's file, for the answer; only within its enterprise. */
export async function photoFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [photo] = await db.select().from(poiPhotos).where(and(eq(poiPhotos.id, id), eq(poiPhotos.enterpriseId, enterpriseId)));
  if (!photo) throw notFound('notFound.photo');
  return { photo, stream: keptFileStream(dataDir, photo.path) };
}

export async function deletePhoto(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [photo] = await db.delete(poiPhotos).where(and(eq(poiPhotos.id, id), eq(poiPhotos.enterpriseId, enterpriseId))).returning();
  if (!photo) throw notFound('notFound.photo');
  await removeKeptFiles(dataDir, [photo.path]);
}

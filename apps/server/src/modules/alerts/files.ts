import { and, count, eq } from 'drizzle-orm';
import { ALERT_PHOTOS_MAX } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { alertPhotos, incidentEvents, incidents } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { IMAGE_TYPES, keepUpload, keptFileStream } from '../../http/keptFiles.ts';
import type { UploadedFile } from '../../http/uploads.ts';
import type { StepActor } from './incidents.ts';

/**
 * A photo of a timeline entry (the crew's report, a note), by the entry's author or an
 * administrator, at most ALERT_PHOTOS_MAX: the entry is locked while its photos are counted, so
 * photos sent at once cannot pass the limit together.
 */
export async function addIncidentPhoto(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, actor: StepActor, incidentId: number, eventId: number, upload: UploadedFile, key?: string) {
  const [event] = await db
    .select({ id: incidentEvents.id, userId: incidentEvents.userId })
    .from(incidentEvents)
    .innerJoin(incidents, eq(incidents.id, incidentEvents.incidentId))
    .where(and(eq(incidentEvents.id, eventId), eq(incidentEvents.incidentId, incidentId), eq(incidents.enterpriseId, enterpriseId)));
  if (!event) throw notFound('notFound.alertEvent');
  if (event.userId !== actor.userId && actor.role !== 'admin') throw forbidden('alerts.photoOwner');
  // Sent again with its key (the phone's queue after a lost answer): the photo kept the first time.
  const kept = async () =>
    key ? (await db.select({ id: alertPhotos.id, fileName: alertPhotos.fileName }).from(alertPhotos).where(and(eq(alertPhotos.eventId, eventId), eq(alertPhotos.idempotencyKey, key))))[0] : undefined;
  const before = await kept();
  if (before) return before;
  try {
    return await keepUploadOnce();
  } catch (error) {
    // Its twin, sent at the same moment, was kept first: that one stands (this file is not kept).
    const twin = uniqueViolation(error) ? await kept() : undefined;
    if (twin) return twin;
    throw error;
  }
  function keepUploadOnce() {
    return keepUpload(dataDir, 'attachments', enterpriseId, upload, { limitBytes, types: IMAGE_TYPES, typeError: badRequest('photo.type') }, async ({ relative, type }) =>
    db.transaction(async (tx) => {
      await tx.select({ id: incidentEvents.id }).from(incidentEvents).where(eq(incidentEvents.id, eventId)).for('update');
      const [{ photos }] = await tx.select({ photos: count() }).from(alertPhotos).where(eq(alertPhotos.eventId, eventId));
      if (Number(photos) >= ALERT_PHOTOS_MAX) throw new AppError(400, 'alerts.photos', { max: ALERT_PHOTOS_MAX });
      const [photo] = await tx
        .insert(alertPhotos)
        .values({ enterpriseId, eventId, fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: actor.userId, idempotencyKey: key ?? null })
        .returning({ id: alertPhotos.id, fileName: alertPhotos.fileName });
      return photo;
    }),
    );
  }
}

/** A photo's content, within its enterprise. */
export async function alertPhoto(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [photo] = await db.select().from(alertPhotos).where(and(eq(alertPhotos.id, id), eq(alertPhotos.enterpriseId, enterpriseId)));
  if (!photo) throw notFound('notFound.alertPhoto');
  return { photo, stream: keptFileStream(dataDir, photo.path) };
}

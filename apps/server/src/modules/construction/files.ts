import { and, count, eq } from 'drizzle-orm';
import { WATCH_PHOTOS_MAX } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { constructionEvents, constructionFiles, constructionSites, constructionWatchLogs } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { IMAGE_TYPES, PDF_TYPE, keepUpload, keptFileStream, removeKeptFiles } from '../../http/keptFiles.ts';
import type { UploadedFile } from '../../http/uploads.ts';

const fileColumns = {
  id: constructionFiles.id,
  watchLogId: constructionFiles.watchLogId,
  kind: constructionFiles.kind,
  fileName: constructionFiles.fileName,
  mimetype: constructionFiles.mimetype,
  size: constructionFiles.size,
  uploadedAt: constructionFiles.uploadedAt,
};

/** A site's file: a protection plan or agreement (PDF or image), or a photo. */
export async function addSiteFile(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, userId: number, siteId: number, kind: 'plan' | 'agreement' | 'photo', upload: UploadedFile) {
  const [site] = await db.select({ status: constructionSites.status }).from(constructionSites).where(and(eq(constructionSites.id, siteId), eq(constructionSites.enterpriseId, enterpriseId)));
  if (!site) throw notFound('notFound.site');
  const types = kind === 'photo' ? IMAGE_TYPES : [PDF_TYPE, ...IMAGE_TYPES];
  const typeError = kind === 'photo' ? badRequest('photo.type') : badRequest('construction.attachmentType');
  return keepUpload(dataDir, 'attachments', enterpriseId, upload, { limitBytes, types, typeError }, async ({ relative, type }) =>
    db.transaction(async (tx) => {
      const [file] = await tx
        .insert(constructionFiles)
        .values({ enterpriseId, siteId, kind, fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: userId })
        .returning(fileColumns);
      await tx.insert(constructionEvents).values({ siteId, userId, action: 'file', fromStatus: site.status, toStatus: site.status, details: { kind, fileName: upload.filename } });
      return file;
    }),
  );
}

/**
 * A photo of one watch log entry (at most WATCH_PHOTOS_MAX): the entry is locked while its photos
 * are counted, so photos sent at once cannot pass the limit together.
 */
export async function addWatchPhoto(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, userId: number, siteId: number, logId: number, upload: UploadedFile) {
  const [log] = await db
    .select({ id: constructionWatchLogs.id })
    .from(constructionWatchLogs)
    .innerJoin(constructionSites, eq(constructionSites.id, constructionWatchLogs.siteId))
    .where(and(eq(constructionWatchLogs.id, logId), eq(constructionWatchLogs.siteId, siteId), eq(constructionSites.enterpriseId, enterpriseId)));
  if (!log) throw notFound('notFound.watchLog');
  return keepUpload(dataDir, 'attachments', enterpriseId, upload, { limitBytes, types: IMAGE_TYPES, typeError: badRequest('photo.type') }, async ({ relative, type }) =>
    db.transaction(async (tx) => {
      await tx.select({ id: constructionWatchLogs.id }).from(constructionWatchLogs).where(eq(constructionWatchLogs.id, logId)).for('update');
      const [{ photos }] = await tx.select({ photos: count() }).from(constructionFiles).where(eq(constructionFiles.watchLogId, logId));
      if (Number(photos) >= WATCH_PHOTOS_MAX) throw new AppError(400, 'construction.watchPhotos', { max: WATCH_PHOTOS_MAX });
      const [file] = await tx
        .insert(constructionFiles)
        .values({ enterpriseId, siteId, watchLogId: logId, kind: 'photo', fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: userId })
        .returning(fileColumns);
      return file;
    }),
  );
}

/** A file's content, within its enterprise. */
export async function siteFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [file] = await db.select().from(constructionFiles).where(and(eq(constructionFiles.id, id), eq(constructionFiles.enterpriseId, enterpriseId)));
  if (!file) throw notFound('notFound.attachment');
  return { file, stream: keptFileStream(dataDir, file.path) };
}

export async function deleteSiteFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [file] = await db.delete(constructionFiles).where(and(eq(constructionFiles.id, id), eq(constructionFiles.enterpriseId, enterpriseId))).returning();
  if (!file) throw notFound('notFound.attachment');
  await removeKeptFiles(dataDir, [file.path]);
}

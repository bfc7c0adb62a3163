import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskAreaEvents, riskAreaFiles, riskAreas } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { IMAGE_TYPES, PDF_TYPE, keepUpload, keptFileStream, removeKeptFiles } from '../../http/keptFiles.ts';
import type { UploadedFile } from '../../http/uploads.ts';

/** A file of an area: a radar image, photo or survey report (PDF or image). */
export async function addAreaFile(db: Db, dataDir: string, limitBytes: number, enterpriseId: number, userId: number, areaId: number, upload: UploadedFile) {
  const [area] = await db.select({ status: riskAreas.status }).from(riskAreas).where(and(eq(riskAreas.id, areaId), eq(riskAreas.enterpriseId, enterpriseId)));
  if (!area) throw notFound('notFound.riskArea');
  return keepUpload(dataDir, 'attachments', enterpriseId, upload, { limitBytes, types: [PDF_TYPE, ...IMAGE_TYPES], typeError: badRequest('construction.attachmentType') }, async ({ relative, type }) =>
    db.transaction(async (tx) => {
      const [file] = await tx
        .insert(riskAreaFiles)
        .values({ enterpriseId, areaId, fileName: upload.filename, mimetype: type.mimetype, size: upload.size, path: relative, uploadedBy: userId })
        .returning({ id: riskAreaFiles.id, fileName: riskAreaFiles.fileName, mimetype: riskAreaFiles.mimetype, size: riskAreaFiles.size, uploadedAt: riskAreaFiles.uploadedAt });
      await tx.insert(riskAreaEvents).values({ areaId, userId, action: 'file', fromStatus: area.status, toStatus: area.status, details: { fileName: upload.filename } });
      return file;
    }),
  );
}

export async function areaFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [file] = await db.select().from(riskAreaFiles).where(and(eq(riskAreaFiles.id, id), eq(riskAreaFiles.enterpriseId, enterpriseId)));
  if (!file) throw notFound('notFound.attachment');
  return { file, stream: keptFileStream(dataDir, file.path) };
}

export async function deleteAreaFile(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const [file] = await db.delete(riskAreaFiles).where(and(eq(riskAreaFiles.id, id), eq(riskAreaFiles.enterpriseId, enterpriseId))).returning();
  if (!file) throw notFound('notFound.attachment');
  await removeKeptFiles(dataDir, [file.path]);
}

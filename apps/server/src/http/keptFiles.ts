import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from './errors.ts';
import type { UploadedFile } from './uploads.ts';

/** A type a kept file may be, told by its first bytes (not by its name or the browser's say). */
export interface FileType {
  mimetype: string;
  ext: string;
  test: (head: Buffer) => boolean;
}

export const IMAGE_TYPES: FileType[] = [
  { mimetype: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimetype: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mimetype: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { mimetype: 'image/heic', ext: 'heic', test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /^(heic|heix|mif1|msf1)$/.test(b.subarray(8, 12).toString('latin1')) },
];
export const PDF_TYPE: FileType = { mimetype: 'application/pdf', ext: 'pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' };

export async function fileTypeOf(path: string, types: FileType[]): Promise<FileType | undefined> {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(16);
    await handle.read(head, 0, 16, 0);
    return types.find((t) => t.test(head));
  } finally {
    await handle.close();
  }
}

/** Where an enterprise's kept files of one kind live, relative to DATA_DIR (never from a request). */
const folderOf = (kind: 'photos' | 'attachments', enterpriseId: number) => join(kind, String(Math.trunc(enterpriseId)));

/**
 * Checks an upload's size and type and moves it under DATA_DIR, then runs `record` (the row that
 * points at it); if that fails the file goes too. Answers what `record` answers.
 */
export async function keepUpload<T>(
  dataDir: string,
  kind: 'photos' | 'attachments',
  enterpriseId: number,
  upload: UploadedFile,
  rules: { limitBytes: number; types: FileType[]; typeError: AppError },
  record: (kept: { relative: string; type: FileType }) => Promise<T>,
): Promise<T> {
  if (upload.size > rules.limitBytes) throw new AppError(413, 'photo.tooLarge', { mb: Math.round(rules.limitBytes / 1024 / 1024) });
  const type = await fileTypeOf(upload.path, rules.types);
  if (!type) throw rules.typeError;
  const relative = join(folderOf(kind, enterpriseId), `${randomUUID()}.${type.ext}`);
  await mkdir(join(dataDir, folderOf(kind, enterpriseId)), { recursive: true });
  await rename(upload.path, join(dataDir, relative));
  try {
    return await record({ relative, type });
  } catch (error) {
    await rm(join(dataDir, relative), { force: true });
    throw error;
  }
}

export const keptFileStream = (dataDir: string, relative: string) => createReadStream(join(dataDir, relative));
export const removeKeptFiles = (dataDir: string, relatives: string[]) => Promise.all(relatives.map((relative) => rm(join(dataDir, relative), { force: true })));

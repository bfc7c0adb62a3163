import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * A file of a multipart body, already on disk under DATA_DIR/uploads: routes read it, and move it
 * to keep it. Only the multipart handler below makes these; a JSON or form body can carry objects
 * and strings but never an instance of this class, so no request can name a server path.
 */
export class UploadedFile {
  constructor(
    readonly path: string,
    readonly filename: string,
    readonly mimetype: string,
    readonly size: number,
  ) {}
}

/** A multipart file field: the value must be a file the server itself wrote from the stream. */
export const uploadedFile = z
  .custom<UploadedFile>((value) => value instanceof UploadedFile, { message: 'field.file' })
  .meta({ type: 'string', format: 'binary', description: 'a file sent as a multipart part' });

declare module 'fastify' {
  interface FastifyRequest {
    /** Files this request's multipart body wrote; null when it had none. */
    uploads: string[] | null;
  }
}

/**
 * Streams every uploaded file of a multipart body to DATA_DIR/uploads (never into memory), puts
 * an UploadedFile in the body in its place, and removes what the route did not move away once the
 * answer is sent. A file over the limit is refused with 413 and the field named.
 */
export function registerUploads(app: FastifyInstance, dataDir: string, limitBytes: number) {
  const dir = join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true });
  app.decorateRequest('uploads', null);
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.uploads) return done();
    void Promise.all(request.uploads.map((path) => rm(path, { force: true }))).finally(() => done());
  });

  return async function onFile(this: FastifyRequest, part: MultipartFile & { value?: unknown }) {
    // A file name is input like any field: U+0000 in it is refused before anything is written.
    if (part.filename.includes('\0') || part.fieldname.includes('\0')) {
      await drain(part.file);
      throw nulInFileName(part.fieldname);
    }
    const path = join(dir, randomUUID());
    (this.uploads ??= []).push(path);
    const written = await writeUpload(part.file, path);
    if (part.file.truncated) throw new AppError(413, 'upload.tooLarge', { mb: Math.round(limitBytes / 1024 / 1024) });
    part.value = new UploadedFile(path, part.filename, part.mimetype, written);
  };
}

/** Disk full (or over the file system's quota) while writing: the server's problem, said as such (507). */
export const isDiskFull = (error: unknown) => ['ENOSPC', 'EDQUOT'].includes((error as { code?: string } | null)?.code ?? '');

/** The error for a file that could not be kept for want of space: its partial file is already gone. */
export const diskFull = () => new AppError(507, 'error.diskFull');

const nulInFileName = (fieldname: string) =>
  Object.assign(new Error('invalid input'), { issues: [{ code: 'custom', path: [fieldname.replace(/\0/g, '\\0'), 'filename'], message: 'field.nul', input: undefined }] });

async function drain(stream: Readable) {
  stream.resume();
  await finished(stream).catch(() => {});
}

/**
 * Writes a part to `path` and answers the bytes written. When the disk fails (full), the partial
 * file goes and the rest of the part is read and dropped, so the client gets its answer (507)
 * instead of a cut connection.
 */
async function writeUpload(source: Readable, path: string): Promise<number> {
  const out = createWriteStream(path);
  let failure: unknown = null;
  out.on('error', (error) => {
    failure ??= error;
    source.unpipe(out);
    source.resume();
  });
  source.pipe(out);
  await finished(source);
  if (!failure) await finished(out).catch((error) => (failure ??= error));
  if (failure) {
    out.destroy();
    await rm(path, { force: true });
    throw isDiskFull(failure) ? diskFull() : failure;
  }
  return out.bytesWritten;
}

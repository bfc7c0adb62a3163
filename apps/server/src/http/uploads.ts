import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
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
    const path = join(dir, randomUUID());
    (this.uploads ??= []).push(path);
    const out = createWriteStream(path);
    await pipeline(part.file, out);
    if (part.file.truncated) throw new AppError(413, 'upload.tooLarge', { mb: Math.round(limitBytes / 1024 / 1024) });
    part.value = new UploadedFile(path, part.filename, part.mimetype, out.bytesWritten);
  };
}

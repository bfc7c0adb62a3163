import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import { AppError } from './errors.ts';

/** A file of a multipart body, already on disk: routes read it, and move it to keep it. */
export interface UploadedFile {
  path: string;
  filename: string;
  mimetype: string;
  size: number;
}

/** A multipart file field (documented as the object the server makes of it). */
export const uploadedFile = z.object(
  { path: z.string(), filename: z.string(), mimetype: z.string(), size: z.number() },
  { message: 'field.required' },
);

declare module 'fastify' {
  interface FastifyRequest {
    uploads: string[];
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
  app.decorateRequest('uploads', null as unknown as string[]);
  app.addHook('onRequest', async (request) => {
    request.uploads = [];
  });
  app.addHook('onResponse', async (request) => {
    await Promise.all(request.uploads.map((path) => rm(path, { force: true })));
  });

  return async function onFile(this: FastifyRequest, part: MultipartFile & { value?: unknown }) {
    const path = join(dir, randomUUID());
    this.uploads.push(path);
    const out = createWriteStream(path);
    await pipeline(part.file, out);
    if (part.file.truncated) throw new AppError(413, 'upload.tooLarge', { mb: Math.round(limitBytes / 1024 / 1024) });
    part.value = { path, filename: part.filename, mimetype: part.mimetype, size: out.bytesWritten } satisfies UploadedFile;
  };
}

import { open } from 'node:fs/promises';

/**
 * UTF-8 when the first megabyte decodes as UTF-8, else GB18030 (a superset of GBK): files from
 * Chinese GIS tools and Excel without an encoding declared are one or the other.
 */
export async function sniffEncoding(path: string, from = 0): Promise<'utf-8' | 'gb18030'> {
  const handle = await open(path);
  try {
    const sample = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(sample, 0, sample.length, from);
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, bytesRead), { stream: true });
    return 'utf-8';
  } catch {
    return 'gb18030';
  } finally {
    await handle.close();
  }
}

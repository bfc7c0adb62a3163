/**
 * A photo from the camera made light for a slow network: at most 1920 px and about 0.5 MB of JPEG,
 * with its EXIF kept (the time it was taken and where). The compressor loads only when a photo is
 * taken; if it cannot (offline before it was ever loaded), the photo goes as it is.
 */
export async function compressPhoto(file: File): Promise<{ name: string; blob: Blob }> {
  try {
    const { default: imageCompression } = await import('browser-image-compression');
    const blob = await imageCompression(file, { maxSizeMB: 0.5, maxWidthOrHeight: 1920, useWebWorker: false, preserveExif: true, fileType: 'image/jpeg' });
    return { name: file.name.replace(/\.\w+$/, '') + '.jpg', blob };
  } catch {
    return { name: file.name, blob: file };
  }
}

/** The longest side of a photo after the tablet shrinks it: enough to see a scratch, small enough to send on Wi-Fi. */
export const PHOTO_MAX_SIDE = 1600;

/** The size a `width` x `height` picture is drawn at so that neither side is over `max` (never enlarged). */
export function fitWithin(
  width: number,
  height: number,
  max = PHOTO_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A camera photo shrunk in the browser to at most PHOTO_MAX_SIDE pixels a side, as a JPEG, before it is sent. */
export async function resizePhoto(file: Blob, quality = 0.85): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot prepare the photo.');
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('This browser cannot prepare the photo.'))),
        'image/jpeg',
        quality,
      ),
    );
  } finally {
    bitmap.close();
  }
}

import fs from 'node:fs';
import { type GreyImage } from '../server/features/labels/pdf-render';

/**
 * A one-frame Y4M video of a grey image (Chromium's fake camera plays it in a loop), centred on a white frame with
 * even sides, as 4:2:0 wants, and a margin for the QR code's quiet zone.
 */
export function writeY4m(file: string, image: GreyImage, margin = 32): void {
  const width = (image.width + 2 * margin + 1) & ~1;
  const height = (image.height + 2 * margin + 1) & ~1;
  const luma = Buffer.alloc(width * height, 255);
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      luma[(y + margin) * width + x + margin] = image.pixels[y * image.width + x]!;
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  fs.writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`),
      luma,
      chroma,
      chroma,
    ]),
  );
}

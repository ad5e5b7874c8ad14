import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';

const run = promisify(execFile);

/** A rendered page in grey levels (0 black .. 255 white), one byte per pixel. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** pixels per point */
  scale: number;
}

/** For tests: the PDF's page size in points and its page count, as poppler's pdfinfo reads them. */
export async function pdfInfo(file: string): Promise<{ pages: number; width: number; height: number }> {
  const { stdout } = await run('pdfinfo', [file]);
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
  const pages = /Pages:\s+(\d+)/.exec(stdout);
  if (!size || !pages) throw new Error(`pdfinfo could not read ${file}: ${stdout}`);
  return { pages: Number(pages[1]), width: Number(size[1]), height: Number(size[2]) };
}

/** For tests: one page rendered by poppler's pdftoppm in grey at `dpi`. */
export async function renderPage(file: string, page: number, dpi: number): Promise<GreyImage> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
  try {
    const prefix = path.join(dir, 'page');
    await run('pdftoppm', [
      '-gray',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      prefix,
    ]);
    return { ...readPgm(fs.readFileSync(`${prefix}.pgm`)), scale: dpi / 72 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readPgm(data: Buffer): Omit<GreyImage, 'scale'> {
  // "P5" width height maxval, each followed by one white-space byte, then the pixels
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  return { width, height, pixels: new Uint8Array(data.subarray(start, start + width * height)) };
}

/** A box of the page in points from its top-left corner. */
export interface PointBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The QR code's text inside one box of a rendered page, or null when none reads there. */
export function decodeQrIn(image: GreyImage, box: PointBox): string | null {
  const x0 = Math.max(0, Math.round(box.x * image.scale));
  const y0 = Math.max(0, Math.round(box.y * image.scale));
  const w = Math.min(image.width - x0, Math.round(box.width * image.scale));
  const h = Math.min(image.height - y0, Math.round(box.height * image.scale));
  // a white margin around the crop stands in for the quiet zone the code has on paper
  const margin = 16;
  const cw = w + 2 * margin;
  const ch = h + 2 * margin;
  const rgba = new Uint8ClampedArray(cw * ch * 4).fill(255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = image.pixels[(y0 + y) * image.width + x0 + x]!;
      const at = ((y + margin) * cw + x + margin) * 4;
      rgba[at] = v;
      rgba[at + 1] = v;
      rgba[at + 2] = v;
    }
  return jsQR(rgba, cw, ch, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

/** Dark pixels of the page that lie outside every box (grown by `tolerance` points), counted. */
export function inkOutside(image: GreyImage, boxes: PointBox[], tolerance: number): number {
  const inside = new Uint8Array(image.width * image.height);
  for (const box of boxes) {
    const x0 = Math.max(0, Math.floor((box.x - tolerance) * image.scale));
    const y0 = Math.max(0, Math.floor((box.y - tolerance) * image.scale));
    const x1 = Math.min(image.width, Math.ceil((box.x + box.width + tolerance) * image.scale));
    const y1 = Math.min(image.height, Math.ceil((box.y + box.height + tolerance) * image.scale));
    for (let y = y0; y < y1; y++) inside.fill(1, y * image.width + x0, y * image.width + x1);
  }
  let dark = 0;
  for (let i = 0; i < inside.length; i++) if (!inside[i] && image.pixels[i]! < 128) dark += 1;
  return dark;
}

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PDFDocument, rgb } from 'pdf-lib';

// Real image files for tests of photo uploads (API tests and the e2e journey's fake camera): a PNG written here,
// a JPEG rendered by poppler's pdftoppm, which the PDF tests need anyway.

const run = promisify(execFile);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of `width` x `height` in two colours, split down the middle (so it is no blank square). */
export function pngImage(width: number, height: number, left = [200, 40, 40], right = [40, 90, 200]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) Buffer.from(x < width / 2 ? left : right).copy(row, 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG of a coloured page (about `width` pixels wide), rendered by pdftoppm. */
export async function jpegImage(
  width = 320,
  colour: [number, number, number] = [0.9, 0.6, 0.1],
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 300]);
  page.drawRectangle({ x: 0, y: 0, width: 400, height: 300, color: rgb(...colour) });
  page.drawRectangle({ x: 100, y: 80, width: 200, height: 140, color: rgb(0.1, 0.2, 0.5) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-jpeg-'));
  try {
    const pdf = path.join(dir, 'in.pdf');
    fs.writeFileSync(pdf, await doc.save());
    await run('pdftoppm', [
      '-jpeg',
      '-singlefile',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      '-1',
      pdf,
      path.join(dir, 'out'),
    ]);
    return fs.readFileSync(path.join(dir, 'out.jpg'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

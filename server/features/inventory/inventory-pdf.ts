import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import type { InventoryDto } from '@domain/schemas/inventory.schema';

// The printed condition inventory (decision 049), drawn with pdf-lib like the invoices and labels: the unit, every
// item with its codes, the legend of the codes, the photos and the customer's signatures.

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 42;
const WIDTH = A4[0] - 2 * MARGIN;
// No. | Description | Room | Codes | High value | Delivered
const COLUMNS = [44, 200, 86, 74, 40, 67];

export interface InventoryFile {
  id: number;
  inventory_item_id: number | null;
  inventory_role: string | null;
  content_type: string;
  content: Buffer;
}

class Sheet {
  page!: PDFPage;
  y = 0;
  private readonly known: Set<number>;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.known = new Set(fonts.regular.getCharacterSet());
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** Makes room for `height` points, on a new page when this one is too full. */
  room(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  printable(text: string) {
    let out = '';
    for (const ch of text.replace(/\s+/g, ' ')) out += this.known.has(ch.codePointAt(0)!) ? ch : '?';
    return out;
  }

  fit(text: string, width: number, size: number, font: PDFFont) {
    let out = this.printable(text);
    while (out.length > 1 && font.widthOfTextAtSize(out, size) > width) out = out.slice(0, -1);
    return out;
  }

  line(text: string, { size = 10, bold = false, gap = 0 } = {}) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    this.y -= gap;
    this.room(size * 1.5);
    this.page.drawText(this.fit(text, WIDTH, size, font), { x: MARGIN, y: this.y - size, size, font });
    this.y -= size * 1.5;
  }

  row(cells: string[], { bold = false } = {}) {
    const size = 9;
    const font = bold ? this.fonts.bold : this.fonts.regular;
    this.room(size * 1.9);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const width = COLUMNS[i]!;
      this.page.drawText(this.fit(cell, width - 4, size, font), { x, y: this.y - size, size, font });
      x += width;
    });
    this.y -= size * 1.6;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 2 },
      end: { x: MARGIN + WIDTH, y: this.y + 2 },
      thickness: 0.3,
      color: rgb(0.7, 0.7, 0.7),
    });
  }
}

async function embed(doc: PDFDocument, file: InventoryFile): Promise<PDFImage | null> {
  // a copy of its own: pdf-lib reads the bytes from offset 0 of the array's buffer, and a Buffer may share a pool
  const bytes = Uint8Array.from(file.content);
  try {
    return file.content_type === 'image/png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    // a damaged image is named in the PDF, not the reason the PDF fails
    return null;
  }
}

export async function inventoryPdf(
  inventory: InventoryDto,
  files: InventoryFile[],
  companyName: string,
  when: (iso: string | null) => string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const unit = inventory.vault.number ?? `#${inventory.vault.id}`;
  doc.setTitle(`Condition inventory - unit ${unit}`);
  doc.setCreator('Warehouse Manager');
  doc.setProducer('Warehouse Manager');
  const s = new Sheet(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  });
  s.line(companyName, { size: 13, bold: true });
  s.line(`Condition inventory - unit ${unit}`, { size: 17, bold: true, gap: 4 });
  s.line(
    `Customer: ${inventory.vault.customer}${inventory.vault.order ? `   Order: ${inventory.vault.order}` : ''}`,
  );
  if (inventory.created_at) s.line(`Taken ${when(inventory.created_at)} by ${inventory.created_by ?? '-'}`);
  const highValue = inventory.items.filter((i) => i.high_value).length;
  s.line(`${inventory.items.length} items${highValue ? `, ${highValue} of high value` : ''}`);

  s.y -= 10;
  s.row(['No.', 'Description', 'Room', 'Codes', 'HV', 'Delivered'], { bold: true });
  for (const item of inventory.items)
    s.row([
      item.sticker,
      item.description,
      item.room ?? '',
      item.codes.join(' '),
      item.high_value ? 'HV' : '',
      item.delivered_at ? 'Yes' : '',
    ]);
  if (inventory.items.length === 0) s.line('No items recorded.');

  s.line('Condition codes', { bold: true, gap: 10 });
  s.line(inventory.codes.map((c) => `${c.code} ${c.meaning}`).join('   ') + '   HV High value', { size: 9 });

  const stickers = new Map(inventory.items.map((i) => [i.id, i.sticker]));
  const photos = files.filter((f) => f.inventory_role === 'photo');
  if (photos.length > 0) {
    s.line('Photos', { bold: true, gap: 10 });
    const boxW = (WIDTH - 12) / 2;
    const boxH = 170;
    let column = 0;
    for (const photo of photos) {
      if (column === 0) s.room(boxH + 16);
      const x = MARGIN + column * (boxW + 12);
      const image = await embed(doc, photo);
      const caption = photo.inventory_item_id
        ? `Item ${stickers.get(photo.inventory_item_id) ?? ''}`
        : 'The whole load';
      s.page.drawText(s.printable(caption), { x, y: s.y - 9, size: 9, font: s.fonts.bold });
      if (image) {
        const scale = Math.min(boxW / image.width, boxH / image.height, 1);
        s.page.drawImage(image, {
          x,
          y: s.y - 14 - image.height * scale,
          width: image.width * scale,
          height: image.height * scale,
        });
      } else {
        s.page.drawText('(the photo could not be read)', { x, y: s.y - 26, size: 9, font: s.fonts.regular });
      }
      column = (column + 1) % 2;
      if (column === 0) s.y -= boxH + 20;
    }
    if (column === 1) s.y -= boxH + 20;
  }

  s.line('Signatures', { bold: true, gap: 10 });
  for (const kind of ['pickup', 'delivery'] as const) {
    const signed = inventory[kind];
    const label = kind === 'pickup' ? 'At pickup' : 'At delivery';
    if (!signed) {
      s.line(`${label}: not signed`);
      continue;
    }
    s.line(`${label}: ${signed.signer}, ${when(signed.signed_at)}`);
    const drawing = files.find((f) => f.inventory_role === kind);
    const image = drawing ? await embed(doc, drawing) : null;
    if (image) {
      const scale = Math.min(220 / image.width, 80 / image.height, 1);
      s.room(image.height * scale + 8);
      s.page.drawImage(image, {
        x: MARGIN,
        y: s.y - image.height * scale,
        width: image.width * scale,
        height: image.height * scale,
      });
      s.y -= image.height * scale + 8;
    }
  }
  return doc.save();
}

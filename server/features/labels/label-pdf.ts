import { setImmediate as nextTurn } from 'node:timers/promises';
import { PDFDocument, type PDFFont, PDFName, PDFPageLeaf, type PDFRef, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { PdfStreamWriter } from './pdf-stream';
import {
  type LabelBox,
  type LabelFormat,
  POSTER_PAGES,
  type PosterFormat,
  SHEET_LAYOUTS,
  labelBox,
} from '@domain/rules/label-sheets';

/** Objects pdf-lib writes before it gives other requests a turn while it serialises the poster. */
const OBJECTS_PER_TICK = 100;

/**
 * Labels drawn between two writes of a label PDF (whole pages: 50 thermal labels, two sheets of 30): each batch is
 * written out and dropped from memory, so a request holds one batch (some 200 KB) however many labels it prints,
 * and the first bytes leave after the first batch.
 */
export const LABELS_PER_BATCH = 50;

export interface VaultLabel {
  link: string;
  number: string;
  customer: string;
  order: string | null;
  type: string;
}

export interface FieldLabel {
  link: string;
  warehouse: string;
  field: string;
}

export interface PosterLabel {
  link: string;
  warehouse: string;
}

interface Fonts {
  bold: PDFFont;
  regular: PDFFont;
  /** the characters the standard fonts can write (WinAnsi); others print as '?' */
  known: Set<number>;
}

/**
 * One page's drawing, written straight as PDF content operators (a few per label instead of pdf-lib's objects per
 * shape, which is what makes 1,000 labels fast): text in the standard fonts, QR codes as filled rectangles.
 */
class Canvas {
  private readonly parts: string[] = ['q 0 g\n'];
  private readonly fontKeys = new Map<PDFFont, PDFName>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly node: PDFPageLeaf,
    /** the page's height in points (y runs upward from its bottom edge) */
    readonly height: number,
  ) {}

  private fontKey(font: PDFFont): PDFName {
    let key = this.fontKeys.get(font);
    if (!key) {
      key = this.node.newFontDictionary(font.name, font.ref);
      this.fontKeys.set(font, key);
    }
    return key;
  }

  /** text with its baseline's left end at (x, y) from the page's bottom-left */
  text(text: string, x: number, y: number, size: number, font: PDFFont): void {
    const encoded = font.encodeText(text).toString();
    this.parts.push(
      `BT ${this.fontKey(font).toString()} ${n(size)} Tf ${n(x)} ${n(y)} Td ${encoded} Tj ET\n`,
    );
  }

  /** a path of rectangles (with its own transformation), filled black */
  fillRects(rects: string): void {
    this.parts.push('q\n', rects, 'f\nQ\n');
  }

  finish(): void {
    this.parts.push('Q\n');
    const stream = this.doc.context.stream(this.parts.join(''));
    this.node.addContentStream(this.doc.context.register(stream));
  }
}

const n = (value: number) => (Math.round(value * 100) / 100).toString();

async function newDocument(title: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Warehouse Manager');
  doc.setProducer('Warehouse Manager');
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  return { doc, fonts: { bold, regular, known: new Set(regular.getCharacterSet()) } };
}

const save = (doc: PDFDocument) => doc.save({ objectsPerTick: OBJECTS_PER_TICK, useObjectStreams: false });

function printable(text: string, fonts: Fonts): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) out += fonts.known.has(ch.codePointAt(0)!) ? ch : '?';
  return out;
}

/** Writes one line, as large as fits the width (at most `size`), shortened with '...' below `min`; answers its size. */
function line(
  canvas: Canvas,
  raw: string,
  at: { x: number; top: number; width: number; size: number; min?: number; center?: boolean },
  font: PDFFont,
  fonts: Fonts,
): number {
  let text = printable(raw, fonts);
  const unit = font.widthOfTextAtSize(text, 1);
  let size = unit > 0 ? Math.min(at.size, at.width / unit) : at.size;
  const min = at.min ?? at.size * 0.6;
  if (size < min) {
    size = min;
    while (text.length > 1 && font.widthOfTextAtSize(`${text}...`, size) > at.width) text = text.slice(0, -1);
    text = `${text}...`;
  }
  const width = font.widthOfTextAtSize(text, size);
  const x = at.center ? at.x + (at.width - width) / 2 : at.x;
  canvas.text(text, x, canvas.height - at.top - size * 0.8, size, font);
  return size;
}

/**
 * A QR code as vector squares (one rectangle per run of dark modules in a row, all filled at once), its top-left
 * corner at (x, top) from the page's top-left, `side` points wide. The link is one byte-mode segment.
 */
function drawQr(canvas: Canvas, link: string, x: number, top: number, side: number): void {
  const qr = QRCode.create([{ data: Buffer.from(link), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  const unit = side / size;
  const pageTop = canvas.height - top;
  // in module units, rows downward from the code's top-left corner
  let rects = `${n(unit)} 0 0 ${n(-unit)} ${n(x)} ${n(pageTop)} cm\n`;
  for (let row = 0; row < size; row++) {
    let start = -1;
    for (let col = 0; col <= size; col++) {
      const dark = col < size && data[row * size + col] === 1;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        rects += `${start} ${row} ${col - start} 1 re\n`;
        start = -1;
      }
    }
  }
  canvas.fillRects(rects);
}

/** A label's contents in its box: the QR code and the lines of text, laid out for wide or tall labels. */
function drawLabel(
  canvas: Canvas,
  box: LabelBox,
  link: string,
  lines: { text: string; big?: boolean }[],
  fonts: Fonts,
): void {
  const pad = Math.min(box.width, box.height) * 0.08;
  const tall = box.height > box.width * 1.2;
  if (tall) {
    const side = Math.min(box.width - 2 * pad, box.height * 0.55);
    drawQr(canvas, link, box.x + (box.width - side) / 2, box.y + pad, side);
    let top = box.y + pad * 1.5 + side;
    for (const l of lines) {
      const size = l.big ? box.width * 0.16 : box.width * 0.065;
      const used = line(
        canvas,
        l.text,
        { x: box.x + pad, top, width: box.width - 2 * pad, size, center: true },
        l.big ? fonts.bold : fonts.regular,
        fonts,
      );
      top += used * 1.25;
    }
    return;
  }
  const side = Math.min(box.height - 2 * pad, box.width * 0.45);
  drawQr(canvas, link, box.x + pad, box.y + (box.height - side) / 2, side);
  const textX = box.x + 2 * pad + side;
  const width = box.x + box.width - pad - textX;
  const bigSize = box.height * 0.3;
  const smallSize = Math.min(box.height * 0.13, bigSize * 0.5);
  const total = lines.reduce((sum, l) => sum + (l.big ? bigSize : smallSize) * 1.2, 0);
  let top = box.y + Math.max(pad, (box.height - total) / 2);
  for (const l of lines) {
    const used = line(
      canvas,
      l.text,
      { x: textX, top, width, size: l.big ? bigSize : smallSize },
      l.big ? fonts.bold : fonts.regular,
      fonts,
    );
    top += used * 1.2;
  }
}

/** A new page at the end of the document's page tree, without pdf-lib's page objects (which would outlive it). */
function addLeaf(doc: PDFDocument, width: number, height: number): PDFPageLeaf {
  const tree = doc.catalog.Pages();
  const leaf = PDFPageLeaf.withContextAndParent(doc.context, doc.catalog.get(PDFName.of('Pages')) as PDFRef);
  leaf.set(PDFName.MediaBox, doc.context.obj([0, 0, width, height]));
  tree.pushLeafNode(doc.context.register(leaf));
  return leaf;
}

/**
 * A label PDF as it is written: the header, then after each `LABELS_PER_BATCH` labels the objects drawn since
 * the last write (dropped from memory once written), and at the end the page tree, catalog, cross-reference table
 * and trailer. Nothing is drawn before the consumer asks for the next part, and other requests get a turn between
 * batches.
 */
async function* labelsPdf<T>(
  title: string,
  format: LabelFormat,
  items: readonly T[],
  draw: (canvas: Canvas, box: LabelBox, item: T, fonts: Fonts) => void,
): AsyncGenerator<Uint8Array> {
  const { doc, fonts } = await newDocument(title);
  await fonts.bold.embed();
  await fonts.regular.embed();
  const writer = new PdfStreamWriter(doc.context);
  yield writer.header();
  const layout = SHEET_LAYOUTS[format];
  let canvas: Canvas | undefined;
  let pageIndex = -1;
  let unwritten = 0;
  for (let index = 0; index < items.length; index++) {
    const box = labelBox(layout, index);
    if (box.page !== pageIndex) {
      if (canvas) {
        canvas.finish();
        if (unwritten >= LABELS_PER_BATCH) {
          yield writer.flush();
          unwritten = 0;
          await nextTurn();
        }
      }
      canvas = new Canvas(doc, addLeaf(doc, layout.pageWidth, layout.pageHeight), layout.pageHeight);
      pageIndex = box.page;
    }
    draw(canvas!, box, items[index]!, fonts);
    unwritten++;
  }
  canvas?.finish();
  if (items.length === 0) addLeaf(doc, layout.pageWidth, layout.pageHeight);
  yield writer.end();
}

/** Vault labels: the vault number large, customer, order and type, and the QR code of the vault's link. */
export function vaultLabelsPdf(
  format: LabelFormat,
  labels: readonly VaultLabel[],
): AsyncGenerator<Uint8Array> {
  return labelsPdf('Vault labels', format, labels, (canvas, box, label, fonts) =>
    drawLabel(
      canvas,
      box,
      label.link,
      [
        { text: label.number, big: true },
        { text: label.customer },
        ...(label.order ? [{ text: `Order ${label.order}` }] : []),
        { text: label.type },
      ],
      fonts,
    ),
  );
}

/** Field labels: warehouse and field name large, and the QR code of the field's link. */
export function fieldLabelsPdf(
  format: LabelFormat,
  labels: readonly FieldLabel[],
): AsyncGenerator<Uint8Array> {
  return labelsPdf('Field labels', format, labels, (page, box, label, fonts) =>
    drawLabel(page, box, label.link, [{ text: label.field, big: true }, { text: label.warehouse }], fonts),
  );
}

/** The checklist poster: the warehouse name, the call to scan, and the QR code of the fill-in link. */
export async function checklistPosterPdf(format: PosterFormat, poster: PosterLabel): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(`${poster.warehouse} checklist`);
  const { width, height } = POSTER_PAGES[format];
  const canvas = new Canvas(doc, doc.addPage([width, height]).node, height);
  const margin = 54;
  line(
    canvas,
    poster.warehouse,
    { x: margin, top: 72, width: width - 2 * margin, size: 48, center: true },
    fonts.bold,
    fonts,
  );
  line(
    canvas,
    "Scan to fill in today's checklist",
    { x: margin, top: 150, width: width - 2 * margin, size: 28, center: true },
    fonts.regular,
    fonts,
  );
  const side = width - 4 * margin;
  drawQr(canvas, poster.link, (width - side) / 2, 220, side);
  canvas.finish();
  return save(doc);
}

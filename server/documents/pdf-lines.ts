import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';

// The printed documents that are lines of text (the check report, billing's invoices and statements) share one way
// of laying them out: A4, Helvetica, one line under the other, a new page whenever one is full.

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

export interface LineOptions {
  size?: number;
  bold?: boolean;
  /** points from the left margin */
  indent?: number;
  /** points of space above the line */
  gap?: number;
  /** a right-aligned amount at the end of the line */
  amount?: string;
}

/** A4 pages of lines, cut to the page width, with an optional right-aligned amount; a new page whenever one is full. */
export class PdfLines {
  private page!: PDFPage;
  private y = 0;
  private readonly known: Set<number>;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.known = new Set(fonts.regular.getCharacterSet());
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** The text in characters the standard font has: white space folded, anything else as '?'. */
  private printable(text: string) {
    let out = '';
    for (const ch of text.replace(/\s+/g, ' ')) out += this.known.has(ch.codePointAt(0)!) ? ch : '?';
    return out;
  }

  line(text: string, options: LineOptions = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    this.y -= options.gap ?? 0;
    if (this.y - size < MARGIN) this.newPage();
    const amount = options.amount ? this.printable(options.amount) : '';
    const amountWidth = amount ? font.widthOfTextAtSize(amount, size) : 0;
    const x = MARGIN + (options.indent ?? 0);
    const width = A4[0] - MARGIN - x - (amount ? amountWidth + 16 : 0);
    let printable = this.printable(text);
    while (printable.length > 1 && font.widthOfTextAtSize(printable, size) > width)
      printable = printable.slice(0, -1);
    this.page.drawText(printable, { x, y: this.y - size, size, font });
    if (amount) this.page.drawText(amount, { x: A4[0] - MARGIN - amountWidth, y: this.y - size, size, font });
    this.y -= size * 1.45;
  }
}

/** A new PDF with its title and the product as creator, and its line writer. */
export async function pdfOfLines(title: string): Promise<{ doc: PDFDocument; w: PdfLines }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Warehouse Manager');
  doc.setProducer('Warehouse Manager');
  const w = new PdfLines(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  });
  return { doc, w };
}

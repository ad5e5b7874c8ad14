import {
  type PDFContext,
  PDFCrossRefSection,
  PDFDict,
  PDFHeader,
  PDFName,
  type PDFObject,
  type PDFRef,
  PDFTrailer,
  PDFTrailerDict,
} from 'pdf-lib';

const encoder = new TextEncoder();

/**
 * Writes a pdf-lib document out in parts while it is still being drawn: the header, then (each `flush`) the indirect
 * objects registered since the last part, which are then dropped from the document, and (`end`) what is left, the
 * cross-reference table and the trailer. The objects that change until the end (the page tree with its Kids and
 * Count, the catalog and the info dictionary) are held back to the end. The result is the same file `save()` writes
 * without object streams, only with the objects in the order they were written.
 */
export class PdfStreamWriter {
  private offset = 0;
  private readonly offsets: { ref: PDFRef; offset: number }[] = [];
  private readonly held: Set<PDFRef>;

  constructor(private readonly context: PDFContext) {
    const root = context.trailerInfo.Root as PDFRef;
    const pages = context.lookup(root, PDFDict).get(PDFName.of('Pages')) as PDFRef;
    this.held = new Set([root, pages, context.trailerInfo.Info as PDFRef]);
  }

  /** `%PDF-1.7` and the binary comment line */
  header(): Uint8Array {
    const header = PDFHeader.forVersion(1, 7);
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    const size = header.copyBytesInto(bytes, 0);
    bytes[size] = 0x0a;
    bytes[size + 1] = 0x0a;
    this.offset += bytes.length;
    return bytes;
  }

  /** the objects registered since the last part (but the held ones), removed from the document once written */
  flush(): Uint8Array {
    return this.write(this.context.enumerateIndirectObjects().filter(([ref]) => !this.held.has(ref)));
  }

  /** every object left, then the cross-reference table and the trailer */
  end(): Uint8Array {
    const objects = this.write(this.context.enumerateIndirectObjects());
    const xref = PDFCrossRefSection.create();
    for (const { ref, offset } of this.offsets.sort((a, b) => a.ref.objectNumber - b.ref.objectNumber))
      xref.addEntry(ref, offset);
    const { Root, Info, ID } = this.context.trailerInfo;
    const trailerDict = PDFTrailerDict.of(
      this.context.obj({ Size: this.context.largestObjectNumber + 1, Root, Info, ...(ID ? { ID } : {}) }),
    );
    // write() counted the objects already: the table starts here
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(this.offset);
    const bytes = new Uint8Array(
      objects.length + xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + trailer.sizeInBytes(),
    );
    bytes.set(objects, 0);
    let at = objects.length;
    at += xref.copyBytesInto(bytes, at);
    bytes[at++] = 0x0a;
    at += trailerDict.copyBytesInto(bytes, at);
    bytes[at++] = 0x0a;
    bytes[at++] = 0x0a;
    trailer.copyBytesInto(bytes, at);
    this.offset += bytes.length - objects.length;
    return bytes;
  }

  private write(objects: [PDFRef, PDFObject][]): Uint8Array {
    const heads = objects.map(([ref]) => encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    let size = 0;
    objects.forEach(([, object], i) => (size += heads[i]!.length + object.sizeInBytes() + ENDOBJ.length));
    const bytes = new Uint8Array(size);
    let at = 0;
    objects.forEach(([ref, object], i) => {
      this.offsets.push({ ref, offset: this.offset + at });
      bytes.set(heads[i]!, at);
      at += heads[i]!.length;
      at += object.copyBytesInto(bytes, at);
      bytes.set(ENDOBJ, at);
      at += ENDOBJ.length;
      this.context.delete(ref);
    });
    this.offset += size;
    return bytes;
  }
}

const ENDOBJ = encoder.encode('\nendobj\n\n');

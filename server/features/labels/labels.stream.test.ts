import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, PDFName, PDFPageLeaf, type PDFRef } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelCodes } from '../../test/label-codes.repo';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse } from '../../factories';
import { VAULT_NOT_FOUND } from '../vaults/vaults.service';
import { LABELS_PER_BATCH } from './label-pdf';
import { decodeQrIn, renderPage } from './pdf-render';
import { PdfStreamWriter } from './pdf-stream';

const run = promisify(execFile);
const LABELS = 1000;
const PT_PER_MM = 72 / 25.4;

/**
 * The file's own cross-reference table, read without any repair: the offset of the table from `startxref`, and
 * for every object in use its offset, which must point at that object's `N 0 obj`.
 */
function crossReferences(pdf: Buffer): { objects: number; wrong: number[] } {
  const tail = pdf.subarray(pdf.length - 64).toString('latin1');
  const start = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)![1]);
  const lines = pdf.subarray(start).toString('latin1').split('\n');
  expect(lines[0]).toBe('xref');
  let objects = 0;
  const wrong: number[] = [];
  for (let i = 1; !lines[i]!.startsWith('trailer');) {
    const [first, count] = lines[i++]!.split(' ').map(Number);
    for (let k = 0; k < count!; k++, i++) {
      const [offset, , kind] = lines[i]!.trim().split(' ');
      if (kind !== 'n') continue;
      objects++;
      const at = Number(offset);
      if (
        pdf
          .subarray(at, at + 20)
          .toString('latin1')
          .split('\n')[0] !== `${first! + k} 0 obj`
      )
        wrong.push(first! + k);
    }
  }
  return { objects, wrong };
}

describe('PdfStreamWriter', () => {
  it('drops what it has written from the document, keeps the page tree to the end, and writes a readable file', async () => {
    const doc = await PDFDocument.create();
    const writer = new PdfStreamWriter(doc.context);
    const parts = [writer.header()];
    const tree = doc.catalog.Pages();
    const treeRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
    for (let batch = 0; batch < 3; batch++) {
      for (let page = 0; page < 10; page++) {
        const leaf = PDFPageLeaf.withContextAndParent(doc.context, treeRef);
        leaf.addContentStream(doc.context.register(doc.context.stream(`0 0 ${batch + 1} ${page + 1} re f`)));
        tree.pushLeafNode(doc.context.register(leaf));
      }
      expect(doc.context.enumerateIndirectObjects().length).toBe(3 + 20); // catalog, pages, info and the batch
      parts.push(writer.flush());
      expect(doc.context.enumerateIndirectObjects().map(([ref]) => ref)).toContain(treeRef);
      expect(doc.context.enumerateIndirectObjects().length).toBe(3);
    }
    parts.push(writer.end());
    expect(doc.context.enumerateIndirectObjects()).toEqual([]);
    const back = await PDFDocument.load(Buffer.concat(parts), { throwOnInvalidObject: true });
    expect(back.getPageCount()).toBe(30);
    expect(crossReferences(Buffer.concat(parts))).toEqual({ objects: 63, wrong: [] });
  });
});

describe.each(testEngines())('label PDFs stream on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });
  let dir: string;
  const vaultIds: number[] = [];
  let codes = new Map<number, string>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-stream-'));
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId: user.companyId,
      rows: 2,
      cols: 5,
      fieldCapacity: 1,
    });
    for (const field of warehouse.fields)
      vaultIds.push((await buildVault(ctx.database.db, { companyId: user.companyId, fieldId: field.id })).id);
    codes = await labelCodes(ctx.database.db, user.companyId);
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends 1,000 labels in parts as they are drawn, as a valid PDF with an exact cross-reference table', async () => {
    // the same ten vaults over and over: a reprint of many labels is a list of 1,000 ids like any other
    const ids = Array.from({ length: LABELS }, (_, i) => vaultIds[i % vaultIds.length]!);
    const res = await user.request({
      method: 'POST',
      url: '/api/labels/vaults',
      payload: { format: 'thermal-2x1', vaultIds: ids },
      payloadAsStream: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBeUndefined();
    const chunks: Buffer[] = [];
    for await (const chunk of res.stream()) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);

    // one part per batch of pages (and the header and the end): no part holds more than a batch
    expect(chunks.length).toBeGreaterThanOrEqual(LABELS / LABELS_PER_BATCH);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(pdf.length / 10);

    const { objects, wrong } = crossReferences(pdf);
    expect(wrong).toEqual([]);
    expect(objects).toBeGreaterThan(2 * LABELS); // a page and its drawing each

    const file = path.join(dir, 'thousand.pdf');
    fs.writeFileSync(file, pdf);
    const info = await run('pdfinfo', [file]);
    expect(info.stderr).toBe(''); // poppler complains of any damage it has to repair
    expect(info.stdout).toMatch(/^Pages:\s+1000$/m);
    expect(info.stdout).toMatch(/^Title:\s+Vault labels$/m);
    const box = { x: 0, y: 0, width: 50.8 * PT_PER_MM, height: 25.4 * PT_PER_MM };
    for (const page of [1, LABELS_PER_BATCH + 1, LABELS]) {
      const image = await renderPage(file, page, 300);
      expect(decodeQrIn(image, box)).toBe(`http://localhost:80/v/${codes.get(ids[page - 1]!)}`);
    }
  });

  it('refuses before the first byte: a clean JSON answer when the last of 1,000 vaults is not the company’s', async () => {
    const other = await signIn(ctx);
    const theirs = await buildWarehouse(ctx.database.db, { companyId: other.companyId, rows: 1, cols: 1 });
    const foreign = await buildVault(ctx.database.db, {
      companyId: other.companyId,
      fieldId: theirs.fields[0]!.id,
    });
    const ids = [...Array.from({ length: LABELS - 1 }, (_, i) => vaultIds[i % vaultIds.length]!), foreign.id];
    const res = await user.request({
      method: 'POST',
      url: '/api/labels/vaults',
      payload: { format: 'avery-5160', vaultIds: ids },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ errors: [VAULT_NOT_FOUND] });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import { labelCodes } from '../../test/label-codes.repo';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse } from '../../factories';
import { VAULT_NOT_FOUND } from '../vaults/vaults.service';
import { NO_FIELDS_IN_RANGE } from './labels.service';
import { decodeQrIn, inkOutside, pdfInfo, renderPage } from './pdf-render';

const PT_PER_MM = 72 / 25.4;
const HALF_MM = 0.5 * PT_PER_MM;

/** The published sheet layouts in millimetres (Avery 5160 and 5163 on US Letter, Avery L7159 on A4). */
const SHEETS = {
  'thermal-4x6': {
    page: [101.6, 152.4],
    label: [101.6, 152.4],
    cols: 1,
    rows: 1,
    left: 0,
    top: 0,
    pitch: [0, 0],
  },
  'thermal-2x1': {
    page: [50.8, 25.4],
    label: [50.8, 25.4],
    cols: 1,
    rows: 1,
    left: 0,
    top: 0,
    pitch: [0, 0],
  },
  'avery-5160': {
    page: [215.9, 279.4],
    label: [66.675, 25.4],
    cols: 3,
    rows: 10,
    left: 4.7625,
    top: 12.7,
    pitch: [69.85, 25.4],
  },
  'avery-5163': {
    page: [215.9, 279.4],
    label: [101.6, 50.8],
    cols: 2,
    rows: 5,
    left: 3.96875,
    top: 12.7,
    pitch: [106.3625, 50.8],
  },
  'a4-3x8': {
    page: [210, 297],
    label: [63.5, 33.9],
    cols: 3,
    rows: 8,
    left: 7.25,
    top: 12.9,
    pitch: [66, 33.9],
  },
} as const;
type Format = keyof typeof SHEETS;

/** The label boxes of one page, in points from the page's top-left corner, across each row then down. */
function boxesOf(format: Format) {
  const s = SHEETS[format];
  const boxes = [];
  for (let row = 0; row < s.rows; row++)
    for (let col = 0; col < s.cols; col++)
      boxes.push({
        x: (s.left + col * s.pitch[0]) * PT_PER_MM,
        y: (s.top + row * s.pitch[1]) * PT_PER_MM,
        width: s.label[0] * PT_PER_MM,
        height: s.label[1] * PT_PER_MM,
      });
  return boxes;
}

describe.each(testEngines())('label PDFs on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });
  let dir: string;
  let warehouse: Awaited<ReturnType<typeof buildWarehouse>>;
  const vaultIds: number[] = [];
  let codes = new Map<number, string>();
  let checklist: ChecklistDto | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'label-pdfs-'));
    warehouse = await buildWarehouse(ctx.database.db, {
      companyId: user.companyId,
      name: 'Label Hall',
      rows: 4,
      cols: 3,
      fieldCapacity: 3,
    });
    for (const field of warehouse.fields)
      for (let i = 0; i < 3; i++) {
        const vault = await buildVault(ctx.database.db, { companyId: user.companyId, fieldId: field.id });
        vaultIds.push(vault.id);
      }
    codes = await labelCodes(ctx.database.db, user.companyId);
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function pdfOf(url: string, payload: object, name: string, method: 'POST' | 'GET' = 'POST') {
    const res = await user.request({ method, url, ...(method === 'POST' ? { payload } : {}) });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(dir, name);
    fs.writeFileSync(file, res.rawPayload);
    return file;
  }

  const expectPageSize = async (file: string, pages: number, [width, height]: readonly number[]) => {
    const info = await pdfInfo(file);
    expect(info.pages).toBe(pages);
    expect(Math.abs(info.width - width! * PT_PER_MM)).toBeLessThanOrEqual(HALF_MM);
    expect(Math.abs(info.height - height! * PT_PER_MM)).toBeLessThanOrEqual(HALF_MM);
  };

  it.each(Object.keys(SHEETS) as Format[])(
    'prints vault labels as %s: exact page, every label in its box, every QR code the vault link',
    async (format) => {
      const boxes = boxesOf(format);
      const ids = vaultIds.slice(0, boxes.length + 1);
      const file = await pdfOf('/api/labels/vaults', { format, vaultIds: ids }, `${format}.pdf`);
      await expectPageSize(file, 2, SHEETS[format].page);
      const first = await renderPage(file, 1, 200);
      const read = boxes.map((box) => decodeQrIn(first, box));
      expect(read).toEqual(ids.slice(0, boxes.length).map((id) => `http://localhost:80/v/${codes.get(id)}`));
      expect(inkOutside(first, boxes, HALF_MM)).toBe(0);
      const second = await renderPage(file, 2, 200);
      expect(decodeQrIn(second, boxes[0]!)).toBe(`http://localhost:80/v/${codes.get(ids.at(-1)!)}`);
    },
  );

  it('prints field labels for a block of fields, each QR code the field link on its warehouse page', async () => {
    const file = await pdfOf(
      '/api/labels/fields',
      { format: 'avery-5163', warehouseId: warehouse.id, from: 'c2', to: 'B3' },
      'fields.pdf',
    );
    await expectPageSize(file, 1, SHEETS['avery-5163'].page);
    const page = await renderPage(file, 1, 150);
    const boxes = boxesOf('avery-5163');
    expect(boxes.slice(0, 5).map((box) => decodeQrIn(page, box))).toEqual([
      ...['B2', 'B3', 'C2', 'C3'].map((f) => `http://localhost:80/warehouse/label-hall?field=${f}`),
      null,
    ]);
    expect(inkOutside(page, boxes.slice(0, 4), HALF_MM)).toBe(0);
  });

  it.each([
    ['letter', [215.9, 279.4]],
    ['a4', [210, 297]],
  ] as const)('prints the checklist poster on %s with the fill-in link', async (format, size) => {
    const poster: ChecklistDto =
      checklist ??
      (await user
        .request({
          method: 'POST',
          url: '/api/checklists/',
          payload: { warehouse_id: warehouse.id, description: 'Daily', tasks: ['Sweep'] },
        })
        .then((res) => res.json() as ChecklistDto));
    checklist = poster;
    const file = await pdfOf(
      `/api/labels/checklist-poster/${poster.id}?format=${format}`,
      {},
      `poster-${format}.pdf`,
      'GET',
    );
    await expectPageSize(file, 1, size);
    const page = await renderPage(file, 1, 72);
    const whole = { x: 0, y: 0, width: size[0] * PT_PER_MM, height: size[1] * PT_PER_MM };
    expect(decodeQrIn(page, whole)).toBe(`http://localhost:80${poster.fill_in_url}`);
  });

  it("refuses another company's vaults as not found, and bad formats and empty ranges readably", async () => {
    const other = await signIn(ctx);
    const foreign = await other.request({
      method: 'POST',
      url: '/api/labels/vaults',
      payload: { format: 'avery-5160', vaultIds: [vaultIds[0]] },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ errors: [VAULT_NOT_FOUND] });
    const badFormat = await user.request({
      method: 'POST',
      url: '/api/labels/vaults',
      payload: { format: 'postcard', vaultIds: [vaultIds[0]] },
    });
    expect(badFormat.statusCode).toBe(400);
    const none = await user.request({
      method: 'POST',
      url: '/api/labels/fields',
      payload: { format: 'thermal-2x1', warehouseId: warehouse.id, from: 'X20', to: 'Z30' },
    });
    expect(none.json()).toEqual({ errors: [NO_FIELDS_IN_RANGE] });
  });

  it('gives a vault imported without a label code one when its label is printed', async () => {
    const id = vaultIds[0]!;
    await ctx.database.db.updateTable('vaults').set({ label_code: null }).where('id', '=', id).execute();
    const file = await pdfOf('/api/labels/vaults', { format: 'thermal-2x1', vaultIds: [id] }, 'again.pdf');
    const row = await ctx.database.db
      .selectFrom('vaults')
      .select('label_code')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.label_code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const page = await renderPage(file, 1, 300);
    expect(decodeQrIn(page, boxesOf('thermal-2x1')[0]!)).toBe(`http://localhost:80/v/${row.label_code}`);
  });
});

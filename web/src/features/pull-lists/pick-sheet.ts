import { formatCount } from '../../lib/format';
import { saveFile } from '../../lib/save-file';
import { handlingsText } from './handlings';
import type { PullListDto } from '@domain/schemas/pull-list.schema';

/** The lines of the printed pick sheet: the plan in walking order, then the vaults set aside to put back. */
export function pickSheetLines(list: PullListDto): string[] {
  const lines = [
    `Pick sheet: ${list.title}`,
    `${formatCount(list.vaults.length, 'vault')}; ${handlingsText(list)}`,
    '',
  ];
  for (const field of list.plan) {
    lines.push(`[ ] ${field.warehouse_name}, field ${field.field_name}`);
    for (const step of field.steps) {
      const what = step.role === 'pull' ? 'PULL (customer)' : 'set aside (in the way)';
      lines.push(
        `    [ ] pos ${step.position}  ${step.name ?? 'no number'}  ${step.customer_name}  - ${what}`,
      );
    }
  }
  const waiting = list.set_aside.filter((v) => v.state === 'set-aside');
  if (waiting.length > 0) {
    lines.push('', 'Put back (in this order: last off, first back):');
    for (const v of waiting)
      lines.push(
        `    [ ] ${v.name ?? 'no number'}  to ${v.from_warehouse_name ?? ''} ${v.from_field_name ?? '?'}`,
      );
  }
  return lines;
}

/** A4 pages of the pick sheet, made with pdf-lib (loaded only when a sheet is asked for). */
export async function pickSheetPdf(list: PullListDto): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(`Pick sheet ${list.title}`);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const size = 11;
  const margin = 48;
  const [width, height] = [595.28, 841.89];
  let page = doc.addPage([width, height]);
  let y = height - margin;
  // the standard fonts know Latin-1 only; anything else is printed as '?'
  const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
  for (const line of pickSheetLines(list)) {
    if (y < margin) {
      page = doc.addPage([width, height]);
      y = height - margin;
    }
    page.drawText(printable(line), { x: margin, y, size, font, color: rgb(0.1, 0.1, 0.1) });
    y -= size * 1.6;
  }
  return doc.save();
}

export async function downloadPickSheet(list: PullListDto): Promise<void> {
  const bytes = await pickSheetPdf(list);
  saveFile(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `pick-sheet-${list.id}.pdf`);
}

import { parseScanText } from '@domain/rules/scan-text';
import type { LoadOutDto, RequestUnitDto } from '@domain/schemas/request.schema';

/** A unit as the load-out names it: its number, else its type and id. */
export const unitName = (u: RequestUnitDto) => u.number ?? `${u.type} #${u.id}`;

/**
 * How a load-out scan waiting on this tablet is named (issue 30): a unit label's link by the unit it names, when the
 * load lists a unit with that label code; any other text as it was read. The server still decides when it is sent.
 */
export function loadScanCaption(loadOut: LoadOutDto, text: string): string {
  const target = parseScanText(text);
  if (target?.kind !== 'vault-code') return text.trim();
  const unit = [...loadOut.missing, ...loadOut.loaded].find((u) => u.label_code === target.code);
  return unit ? `${unitName(unit)} (label)` : UNLISTED_LABEL;
}

const UNLISTED_LABEL = 'a unit label this load does not list';

/** What the last scans say of a scan that waits on this tablet: a label the load does not list is the server's call. */
export function queuedLoadScanNote(loadOut: LoadOutDto, text: string): string {
  const caption = loadScanCaption(loadOut, text);
  return caption === UNLISTED_LABEL
    ? `${caption}: not synced yet, the server decides`
    : `${caption}: counted on this tablet, not synced yet`;
}

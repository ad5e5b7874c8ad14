import { parseScanText } from '@domain/rules/scan-text';
import type { LoadOutDto, RequestUnitDto } from '@domain/schemas/request.schema';

/** A unit as the load-out names it: its number, else its type and id. */
export const unitName = (u: RequestUnitDto) => u.number ?? `${u.type} #${u.id}`;

/** A load-out scan waiting in this tablet's outbox (issue 30): what was read, and whether the server refused it. */
export interface QueuedLoadScan {
  text: string;
  /** refused by the server: it counts for nothing until Retry */
  refused: boolean;
}

export interface LoadWithQueuedScans {
  /** the server's load-out with this tablet's waiting scans counted in */
  loadOut: LoadOutDto;
  /** units counted onto the truck from a scan that has not reached the server */
  notSynced: ReadonlySet<number>;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The unit of the load a scan names, read as the server reads it: a unit label's link by its label code, else the
 * unit number (one unit of the load with that number; the server looks across the company). undefined when the load
 * lists none.
 */
function unitOf(loadOut: LoadOutDto, text: string): RequestUnitDto | undefined {
  const units = [...loadOut.missing, ...loadOut.loaded];
  const target = parseScanText(text);
  if (target?.kind === 'vault-code') return units.find((u) => u.label_code === target.code);
  const named = units.filter((u) => u.number !== null && same(u.number, text));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The load-out as this tablet shows it while some of its scans wait to be sent: a waiting scan of a unit the load
 * still misses and that is pulled (on the stage) counts onto the truck at once, marked not synced, as the server will
 * count it. Anything else (a unit still in its field, one the load does not list, a text it cannot read) is the
 * server's call and counts for nothing here. The server's answer is the base: a scan it has counted already finds its
 * unit loaded and changes nothing, so nothing counts twice. Refused scans count for nothing.
 */
export function withQueuedLoadScans(
  loadOut: LoadOutDto,
  scans: readonly QueuedLoadScan[],
): LoadWithQueuedScans {
  const notSynced = new Set<number>();
  for (const scan of scans) {
    if (scan.refused) continue;
    const unit = unitOf(loadOut, scan.text);
    if (unit?.place === 'on-stage' && loadOut.missing.includes(unit)) notSynced.add(unit.id);
  }
  if (notSynced.size === 0) return { loadOut, notSynced };
  return {
    loadOut: {
      ...loadOut,
      loaded: [...loadOut.loaded, ...loadOut.missing.filter((u) => notSynced.has(u.id))],
      missing: loadOut.missing.filter((u) => !notSynced.has(u.id)),
    },
    notSynced,
  };
}

/**
 * How a load-out scan waiting on this tablet is named (issue 30): a unit label's link by the unit it names, when the
 * load lists a unit with that label code; any other text as it was read. The server still decides when it is sent.
 */
export function loadScanCaption(loadOut: LoadOutDto, text: string): string {
  const target = parseScanText(text);
  if (target?.kind !== 'vault-code') return text.trim();
  const unit = unitOf(loadOut, text);
  return unit ? `${unitName(unit)} (label)` : UNLISTED_LABEL;
}

const UNLISTED_LABEL = 'a unit label this load does not list';

/**
 * What the last scans say of a scan that waits on this tablet, and whether it reads as good: counted when it counts
 * onto the truck here (`withQueuedLoadScans`), already on the truck when its unit is, a unit still in its field as
 * the refusal the server will most likely give, else the server's call.
 */
export function queuedLoadScanNote(loadOut: LoadOutDto, text: string): { said: string; ok: boolean } {
  const caption = loadScanCaption(loadOut, text);
  if (withQueuedLoadScans(loadOut, [{ text, refused: false }]).notSynced.size > 0)
    return { said: `${caption}: counted on this device, not synced yet`, ok: true };
  const unit = unitOf(loadOut, text);
  if (unit && loadOut.loaded.includes(unit)) return { said: `${caption}: already on the truck`, ok: true };
  if (unit?.place === 'in-field')
    return {
      said: `${caption}: still in ${unit.location ?? 'its field'}, pull it first (not synced yet, the server decides)`,
      ok: false,
    };
  return { said: `${caption}: not synced yet, the server decides`, ok: true };
}

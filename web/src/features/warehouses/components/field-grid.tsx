import { Lock, Maximize2, Minus, Plus } from 'lucide-react';
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { fieldSlotCount } from '@domain/rules/capacity';
import { columnLetters, compareFieldNames, parseFieldName } from '@domain/rules/field-names';
import { fieldFillLevel, type FillLevel } from '@domain/rules/occupancy';
import type { FieldDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useIsHeld } from '@/components/billing/hold-badge';

const fillClass: Record<FillLevel, string> = {
  full: 'bg-full text-white',
  warning: 'bg-warning text-slate-900',
  success: 'bg-success text-white',
  empty: 'bg-field-empty text-slate-700',
};

export function fieldFill(field: FieldDto, fieldCapacity: number): FillLevel {
  return fieldFillLevel(
    Object.keys(field.vaults).length,
    fieldSlotCount(field.type, fieldCapacity),
    field.full,
  );
}

/** 'fit' squeezes every column into the width; the numbers are the tile's minimum width in rem. */
const ZOOMS = ['fit', 2.75, 3.5, 4.5] as const;
type Zoom = (typeof ZOOMS)[number];
/** The smallest full-size zoom: 2.75 rem is a 44 px tile, the least a finger hits reliably. */
const FULL_SIZE: Zoom = 2.75;
const TOUCH_PX = 44;
const GAP_PX = 6;
const FIT_GAP_PX = 2;
/** Fitted tiles narrower than this could not show their names ('A12'): such a grid opens scrolled instead. */
const MIN_FIT_TILE_PX = 28;

/**
 * The zoom a grid opens with: full size where every column fits, else Fit where the fitted tiles still show their
 * names (a 9-column warehouse on a phone shows all of it at once instead of hiding columns H and I), else full
 * size with the scroll hints.
 */
function openingZoom(cols: number, width: number): Zoom {
  const fullWidth = cols * TOUCH_PX + (cols - 1) * GAP_PX;
  const fitted = (width - (cols - 1) * FIT_GAP_PX) / cols;
  return fullWidth > width && fitted >= MIN_FIT_TILE_PX ? 'fit' : FULL_SIZE;
}

export const FIELD_DETAIL_ID = 'field-detail';

interface Cell {
  field: FieldDto;
  col: number;
  row: number;
  span: number;
}

/** The tiles laid out by column (letter) and row (number); a couchbox top covers its own row and the next. */
function layout(warehouse: WarehouseDto): { rows: Cell[][]; at: Map<string, Cell> } {
  const fields = Object.values(warehouse.fields)
    .filter((f) => f.type !== 'couchbox-B')
    .sort((a, b) => compareFieldNames(a.name, b.name));
  const rows: Cell[][] = Array.from({ length: warehouse.rows }, () => []);
  const at = new Map<string, Cell>();
  for (const field of fields) {
    const place = parseFieldName(field.name);
    if (!place || place.row > warehouse.rows) continue;
    const span = field.type === 'couchbox-T' && place.row < warehouse.rows ? 2 : 1;
    const cell = { field, col: place.col, row: place.row, span };
    rows[place.row - 1]!.push(cell);
    for (let r = place.row; r < place.row + span; r++) at.set(`${place.col}:${r}`, cell);
  }
  for (const row of rows) row.sort((a, b) => a.col - b.col);
  return { rows, at };
}

/** Whether the scroller hides columns on its left or right, for the edge shadows and the hint. */
function useOverflow(scroller: HTMLDivElement | null) {
  const [edges, setEdges] = useState({ left: false, right: false });
  useLayoutEffect(() => {
    if (!scroller) return;
    const measure = () =>
      setEdges({
        left: scroller.scrollLeft > 1,
        right: scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1,
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    if (scroller.firstElementChild) observer.observe(scroller.firstElementChild);
    scroller.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', measure);
    };
  }, [scroller]);
  return edges;
}

/**
 * The fields as the warehouse floor shows them: letters are columns, numbers rows. The grid is one tab stop:
 * arrow keys move between tiles (Home/End along a row, Ctrl+Home/End to the corners) and Enter or Space selects.
 * A zoom bar fits a wide warehouse to the screen or enlarges the tiles; shadows and a hint show hidden columns.
 */
export function FieldGrid({
  warehouse,
  selectedFieldId,
  onSelect,
  highlighted,
}: {
  warehouse: WarehouseDto;
  selectedFieldId: number | undefined;
  onSelect: (fieldId: number) => void;
  /** with an active search: the fields that match; the rest fade */
  highlighted: Set<number> | null;
}) {
  const { rows, at } = layout(warehouse);
  const cells = rows.flat();
  const [zoom, setZoom] = useState<Zoom>(FULL_SIZE);
  const [activeId, setActiveId] = useState<number | undefined>(selectedFieldId);
  const tiles = useRef(new Map<number, HTMLButtonElement>());
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const edges = useOverflow(scroller);
  const isHeld = useIsHeld();
  // whether the tap on a tile came from a finger: a finger's tap on a fitted tile under 44 px zooms in first
  const touched = useRef(false);
  const zoomedTo = useRef<number | null>(null);

  // chosen once, before the first paint, from the width the grid has; the user's own choice stands after that
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || !scroller) return;
    opened.current = true;
    const padding = 8;
    setZoom(openingZoom(warehouse.cols, scroller.clientWidth - padding));
  }, [scroller, warehouse.cols]);

  // after a zoom in on a tapped tile: that tile in the middle of the view, holding the grid's tab stop
  useLayoutEffect(() => {
    if (zoomedTo.current === null) return;
    const tile = tiles.current.get(zoomedTo.current);
    zoomedTo.current = null;
    tile?.scrollIntoView({ block: 'nearest', inline: 'center' });
    tile?.focus({ preventScroll: true });
  }, [zoom]);

  // the tile that takes the grid's one tab stop: the last one moved to, else the selected one, else the first
  const focusable =
    cells.find((c) => c.field.id === activeId) ??
    cells.find((c) => c.field.id === selectedFieldId) ??
    cells[0];

  function moveTo(cell: Cell | undefined) {
    if (!cell) return;
    setActiveId(cell.field.id);
    const tile = tiles.current.get(cell.field.id);
    tile?.focus();
    tile?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>, from: Cell) {
    const find = (col: number, row: number) => at.get(`${col}:${row}`);
    const step = (dc: number, dr: number) => {
      let col = from.col + dc;
      let row = dr > 0 ? from.row + from.span - 1 + dr : from.row + dr;
      while (col >= 1 && col <= warehouse.cols && row >= 1 && row <= warehouse.rows) {
        const next = find(col, row);
        if (next && next !== from) return next;
        col += dc;
        row += dr;
      }
      return undefined;
    };
    const inRow = rows[from.row - 1] ?? [];
    const moves: Record<string, () => Cell | undefined> = {
      ArrowRight: () => step(1, 0),
      ArrowLeft: () => step(-1, 0),
      ArrowDown: () => step(0, 1),
      ArrowUp: () => step(0, -1),
      Home: () => (event.ctrlKey ? cells[0] : inRow[0]),
      End: () => (event.ctrlKey ? cells.at(-1) : inRow.at(-1)),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveTo(move());
  }

  const fit = zoom === 'fit';
  const zoomIndex = ZOOMS.indexOf(zoom);
  const hidden = edges.left || edges.right;

  function onTile(cell: Cell, tile: HTMLButtonElement) {
    const box = tile.getBoundingClientRect();
    if (fit && touched.current && (box.width < TOUCH_PX || box.height < TOUCH_PX)) {
      // small for a finger: the field opens at once (issue 27: one tap), and the grid shows full size around it, so
      // a neighbour is easy to hit if the finger was off by one
      setZoom(FULL_SIZE);
      zoomedTo.current = cell.field.id;
    }
    setActiveId(cell.field.id);
    onSelect(cell.field.id);
  }

  return (
    <div className="space-y-2">
      <a
        href={`#${FIELD_DETAIL_ID}`}
        onClick={(event) => {
          const target = document.getElementById(FIELD_DETAIL_ID);
          if (!target) return;
          event.preventDefault();
          target.focus();
        }}
        className="sr-only rounded-lg bg-primary text-sm focus:px-3 focus:py-2 font-semibold text-white focus:not-sr-only focus:inline-block focus:outline-2 focus:outline-offset-2 focus:outline-accent"
      >
        Skip to field details
      </a>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600" aria-live="polite">
          {hidden
            ? 'Scroll sideways for more columns, or fit the grid to the screen.'
            : fit
              ? 'Every column fits the screen. On a touch screen, tapping a field opens it and zooms in around it.'
              : ''}
        </p>
        <div role="toolbar" aria-label="Grid zoom" className="flex items-center gap-1">
          <button
            type="button"
            className={zoomButton}
            onClick={() => setZoom(ZOOMS[Math.max(0, zoomIndex - 1)]!)}
            disabled={zoomIndex === 0}
            aria-label="Zoom out"
            title="Zoom out"
          >
            <Minus className="h-4 w-4" aria-hidden />
          </button>
          <button
            type="button"
            className={`${zoomButton} px-2.5`}
            onClick={() => setZoom('fit')}
            aria-pressed={fit}
            title="Show every column at once"
          >
            <Maximize2 className="h-4 w-4" aria-hidden />
            <span className="text-xs font-semibold">Fit</span>
          </button>
          <button
            type="button"
            className={zoomButton}
            onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, zoomIndex + 1)]!)}
            disabled={zoomIndex === ZOOMS.length - 1}
            aria-label="Zoom in"
            title="Zoom in"
          >
            <Plus className="h-4 w-4" aria-hidden />
          </button>
        </div>
      </div>
      <div className="relative">
        <div ref={setScroller} className="-m-1 overflow-x-auto p-1" data-testid="field-grid-scroller">
          <div role="group" aria-label="Fields">
            <div
              role="grid"
              aria-label={`Fields of ${warehouse.name}`}
              aria-rowcount={warehouse.rows}
              aria-colcount={warehouse.cols}
              className={`grid ${fit ? 'gap-0.5' : 'gap-1.5'}`}
              style={{
                gridTemplateColumns: fit
                  ? `repeat(${warehouse.cols}, minmax(0, 1fr))`
                  : `repeat(${warehouse.cols}, minmax(${zoom}rem, 1fr))`,
                gridTemplateRows: fit
                  ? `repeat(${warehouse.rows}, minmax(1.5rem, 4vh))`
                  : `repeat(${warehouse.rows}, max(${zoom}rem, 5vh))`,
              }}
            >
              {rows.map((row, r) => (
                <div key={r} role="row" aria-rowindex={r + 1} className="contents">
                  {row.map((cell) => {
                    const { field } = cell;
                    const level = fieldFill(field, warehouse.fieldCapacity);
                    const selected = field.id === selectedFieldId;
                    const match = highlighted?.has(field.id) ?? false;
                    const faded = highlighted !== null && !match;
                    const count = Object.keys(field.vaults).length;
                    // a unit of an account on hold in this field (decision 039): a lock in the tile's corner
                    const held = Object.values(field.vaults).some((v) => isHeld(v.id));
                    return (
                      <div
                        key={field.id}
                        role="gridcell"
                        aria-colindex={cell.col}
                        aria-rowspan={cell.span > 1 ? cell.span : undefined}
                        aria-selected={selected}
                        className="flex min-h-0 min-w-0"
                        style={{ gridColumn: cell.col, gridRow: `${cell.row} / span ${cell.span}` }}
                        onKeyDown={(event) => onKeyDown(event, cell)}
                      >
                        <button
                          ref={(node) => {
                            if (node) tiles.current.set(field.id, node);
                            else tiles.current.delete(field.id);
                          }}
                          type="button"
                          tabIndex={cell === focusable ? 0 : -1}
                          onPointerDown={(event) => {
                            touched.current = event.pointerType === 'touch';
                          }}
                          onClick={(event) => {
                            onTile(cell, event.currentTarget);
                            touched.current = false;
                          }}
                          onFocus={() => setActiveId(field.id)}
                          aria-pressed={selected}
                          data-fill={level}
                          // fitted tiles may be under 44 px: a finger's tap on one opens it and zooms in to full-size tiles
                          data-touch-alternative={fit ? 'tap zooms' : undefined}
                          data-match={highlighted === null ? undefined : String(match)}
                          data-held={held || undefined}
                          title={`${field.name}: ${count} ${count === 1 ? 'vault' : 'vaults'}${field.full ? ', marked full' : ''}${held ? ', a unit on hold' : ''}`}
                          className={`relative flex min-h-0 w-full min-w-0 items-center justify-center overflow-hidden rounded-md font-semibold shadow-sm transition ${
                            fit ? 'text-[10px] sm:text-xs' : 'text-xs sm:text-sm'
                          } ${fillClass[level]} ${selected ? 'ring-3 ring-primary ring-offset-1' : 'hover:brightness-95'} ${
                            faded ? 'opacity-40 grayscale' : ''
                          } ${match ? 'z-10 ring-3 ring-accent ring-offset-1' : ''} focus-visible:z-20 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent`}
                        >
                          {field.name}
                          {held && (
                            <Lock
                              className="absolute top-0.5 right-0.5 size-3 rounded-sm bg-red-100 p-px text-red-800"
                              aria-hidden
                              data-testid="hold-marker"
                            />
                          )}
                        </button>
                      </div>
                    );
                  })}
                </div>
              ))}
            </div>
          </div>
        </div>
        {edges.left && (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-y-0 left-0 w-8 bg-gradient-to-r from-slate-900/25 to-transparent"
          />
        )}
        {edges.right && (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-y-0 right-0 flex w-10 items-center justify-end bg-gradient-to-l from-slate-900/25 to-transparent"
          />
        )}
      </div>
      {hidden && (
        <div className="flex justify-between text-xs font-semibold text-slate-700">
          <button
            type="button"
            className={`${scrollButton} ${edges.left ? '' : 'invisible'}`}
            onClick={() => scroller?.scrollBy({ left: -scroller.clientWidth * 0.8, behavior: 'smooth' })}
            tabIndex={-1}
            aria-hidden
          >
            ← Back to column A
          </button>
          <button
            type="button"
            className={`${scrollButton} ${edges.right ? '' : 'invisible'}`}
            onClick={() => scroller?.scrollBy({ left: scroller.clientWidth * 0.8, behavior: 'smooth' })}
            tabIndex={-1}
            aria-hidden
          >
            More columns, to {columnLetters(warehouse.cols)} →
          </button>
        </div>
      )}
    </div>
  );
}

const zoomButton =
  'inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-lg border border-slate-300 bg-white text-slate-700 hover:border-accent hover:text-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50 aria-pressed:border-accent aria-pressed:bg-accent/10 aria-pressed:text-blue-800 pointer-coarse:h-11 pointer-coarse:min-w-11';
const scrollButton = 'rounded-lg px-2 py-1 hover:bg-slate-100 pointer-coarse:min-h-11 pointer-coarse:px-3';

export function FillLegend() {
  const items: { level: FillLevel; label: string }[] = [
    { level: 'empty', label: 'Empty' },
    { level: 'success', label: 'In use' },
    { level: 'warning', label: 'Over half' },
    { level: 'full', label: 'Full' },
  ];
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
      {items.map((item) => (
        <li key={item.level} className="flex items-center gap-1.5">
          <span className={`inline-block h-3 w-3 rounded-sm ${fillClass[item.level]}`} aria-hidden />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

import { DndContext, type DragEndEvent, type DragMoveEvent } from '@dnd-kit/core';
import { Move } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { clampFieldGrid, fieldGridSize } from '@domain/rules/field-grid-floor';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useMoveFieldGrid } from '@/api/layout';
import { useRacks } from '@/api/racks';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import {
  DropPreview,
  dropPoint,
  FloorCanvas,
  planAnnouncements,
  useDragButton,
  useDragPlan,
} from './floor-canvas';

const BLOCK_ID = 'field-grid-block';

function VaultsBlock({
  x,
  y,
  width,
  length,
  scale,
}: {
  x: number;
  y: number;
  width: number;
  length: number;
  scale: number;
}) {
  const { button, isDragging, offset } = useDragButton(BLOCK_ID);
  return (
    <button
      {...button}
      aria-label="VAULTS: the field grid, drag to place it"
      className={`absolute z-10 flex cursor-grab touch-none flex-col items-center justify-center gap-1 border-2 border-primary bg-field-empty/90 text-xs font-bold tracking-widest text-primary shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
        isDragging ? 'cursor-grabbing opacity-70 shadow-xl' : ''
      }`}
      style={{
        left: x * scale,
        top: y * scale,
        width: width * scale,
        height: length * scale,
        transform: offset,
      }}
    >
      <Move className="h-4 w-4" aria-hidden />
      VAULTS
    </button>
  );
}

/** The floor to scale with the field grid block (cols x 5 ft by rows x 5 ft), placed by dragging. */
export function FieldGridPlacement({ warehouse }: { warehouse: WarehouseDto }) {
  const format = useFormat();
  // one decimal, written the company's way: '15.0' (en-US), '15,0' (de-DE)
  const feet = (value: number) =>
    new Intl.NumberFormat(format.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      value,
    );
  const moveGrid = useMoveFieldGrid(warehouse.id);
  const racks = useRacks(warehouse.id);
  const floor = { width: warehouse.width, length: warehouse.length };
  const { plan, frame, scale, sensors, throttle } = useDragPlan(floor, 520);
  const [preview, setPreview] = useState<{ x: number; y: number } | null>(null);
  const size = fieldGridSize(warehouse);
  const shown = { width: Math.min(size.width, floor.width), length: Math.min(size.length, floor.length) };

  function target(event: DragMoveEvent | DragEndEvent) {
    const point = dropPoint(event, plan.current, scale);
    return point ? clampFieldGrid(point, warehouse, floor) : null;
  }

  function onDragEnd(event: DragEndEvent) {
    throttle.cancel();
    setPreview(null);
    const location = target(event);
    if (!location) return;
    const { x, y } = warehouse.fieldgridLocation;
    if (Math.abs(location.x - x) < 1e-9 && Math.abs(location.y - y) < 1e-9) return;
    moveGrid
      .mutateAsync(location)
      .then(() => toast.success('Field grid position saved.'))
      .catch((error: unknown) =>
        toast.error(
          `Could not save the field grid position; it was put back. ${errorMessages(error).join(' ')}`,
        ),
      );
  }

  return (
    <DndContext
      sensors={sensors}
      onDragStart={throttle.cancel}
      onDragMove={(event) => throttle.run(() => setPreview(target(event)))}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        throttle.cancel();
        setPreview(null);
      }}
      accessibility={{ announcements: planAnnouncements(() => 'the field grid', 'floor') }}
    >
      <div ref={frame} className="min-w-0 overflow-x-auto">
        <FloorCanvas ref={plan} floor={floor} scale={scale} label="Field grid placement plan">
          {(racks.data ?? []).map((rack) => (
            <div
              key={rack.id}
              aria-hidden
              className="absolute rounded-sm border border-slate-400 bg-slate-300/70"
              style={{
                left: rack.position.x * scale,
                top: rack.position.y * scale,
                width: rack.position.width * scale,
                height: rack.position.length * scale,
              }}
            />
          ))}
          <VaultsBlock {...warehouse.fieldgridLocation} {...shown} scale={scale} />
          {preview && <DropPreview rect={{ ...preview, ...shown }} valid scale={scale} />}
        </FloorCanvas>
        <p className="mt-2 text-center text-xs text-slate-600">
          Field grid {warehouse.cols} x {warehouse.rows} fields = {size.width} x {size.length} ft, at{' '}
          {feet(warehouse.fieldgridLocation.x)}, {feet(warehouse.fieldgridLocation.y)} ft from the top-left
          corner
        </p>
      </div>
    </DndContext>
  );
}

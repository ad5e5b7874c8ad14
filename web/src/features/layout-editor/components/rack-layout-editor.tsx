import { DndContext, type DragEndEvent, type DragMoveEvent } from '@dnd-kit/core';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  type NamedRect,
  type Placement,
  fieldBlockObstacle,
  placeRack,
  type Size,
  rackTitle,
} from '@domain/rules/rack-placement';
import { VaultsBlock } from '@/components/ui/vaults-block';
import type { RackDto } from '@domain/schemas/rack.schema';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { useAddRack, useMoveRack, useRacks } from '@/api/racks';
import { ErrorList } from '@/components/ui/error-list';
import { PlanItemList } from '@/components/ui/plan-item-list';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import {
  DropPreview,
  dropPoint,
  FloorCanvas,
  isOverPlan,
  planAnnouncements,
  useDragButton,
  useDragPlan,
} from './floor-canvas';
import { RackInfoDialog } from './rack-info-dialog';
import {
  DEFAULT_TEMPLATE,
  RackTemplate,
  readTemplate,
  TEMPLATE_DRAG_ID,
  type TemplateValues,
  templateFootprint,
} from './rack-template';

const rackDragId = (id: number) => `rack-${id}`;

function PlacedRack({ rack, scale, onOpen }: { rack: RackDto; scale: number; onOpen: () => void }) {
  const { button, isDragging, offset } = useDragButton(rackDragId(rack.id));
  // the label runs along the rack's long side, as it is drawn
  const vertical = rack.position.length > rack.position.width;
  return (
    <button
      {...button}
      onClick={onOpen}
      aria-label={rackTitle(rack.name)}
      title={`${rack.name}: drag to move, click for info`}
      data-rack-id={rack.id}
      data-touch-alternative="rack list"
      className={`absolute flex cursor-grab touch-none items-center justify-center overflow-hidden rounded-sm border border-primary bg-primary/85 text-[11px] leading-tight font-semibold text-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
        isDragging ? 'z-30 cursor-grabbing opacity-70 shadow-xl' : 'z-10'
      }`}
      style={{
        left: rack.position.x * scale,
        top: rack.position.y * scale,
        width: rack.position.width * scale,
        height: rack.position.length * scale,
        transform: offset,
      }}
    >
      <span
        className={`max-h-full max-w-full truncate px-0.5 ${vertical ? '[writing-mode:vertical-rl]' : ''}`}
      >
        {rack.name}
      </span>
    </button>
  );
}

/** 'Edit Warehouse Layout': drag the template onto the plan to add a rack, drag racks to move them. */
export function RackLayoutEditor({ warehouse }: { warehouse: WarehouseDto }) {
  const racks = useRacks(warehouse.id);
  const addRack = useAddRack(warehouse.id);
  const moveRack = useMoveRack(warehouse.id);
  const floor = { width: warehouse.width, length: warehouse.length };
  const { plan, frame, scale, sensors, throttle } = useDragPlan(floor, 620);
  const [template, setTemplate] = useState<TemplateValues>(DEFAULT_TEMPLATE);
  const [preview, setPreview] = useState<Placement | null>(null);
  const [openRackId, setOpenRackId] = useState<number | null>(null);
  // a drag ends with a click on the rack under the pointer; that click must not open Rack Info
  const justDragged = useRef(false);

  if (racks.isPending) return <Spinner label="Loading racks..." />;
  if (racks.isError)
    return <ErrorList messages={[`Failed to fetch racks: ${errorMessages(racks.error).join(' ')}`]} />;
  const list = racks.data;

  function dragged(id: string | number): { rack: RackDto | null; size: Size } | null {
    if (id === TEMPLATE_DRAG_ID) return { rack: null, size: templateFootprint(template) };
    const rack = list.find((r) => rackDragId(r.id) === id);
    return rack ? { rack, size: { width: rack.position.width, length: rack.position.length } } : null;
  }

  function placementFor(event: DragMoveEvent | DragEndEvent): Placement | null {
    const item = dragged(event.active.id);
    const point = dropPoint(event, plan.current, scale);
    if (!item || !point) return null;
    // the VAULTS field block stands in the way like a rack (the server refuses it the same way)
    const others: NamedRect[] = [
      ...list.filter((r) => r.id !== item.rack?.id).map((r) => ({ ...r.position, name: r.name })),
      ...fieldBlockObstacle({ ...warehouse.fieldgridLocation, rows: warehouse.rows, cols: warehouse.cols }),
    ];
    return placeRack(point, item.size, floor, others);
  }

  function onDragMove(event: DragMoveEvent) {
    throttle.run(() =>
      setPreview(isOverPlan(event) || event.active.id !== TEMPLATE_DRAG_ID ? placementFor(event) : null),
    );
  }

  function onDragEnd(event: DragEndEvent) {
    justDragged.current = true;
    setTimeout(() => {
      justDragged.current = false;
    }, 0);
    throttle.cancel();
    setPreview(null);
    const item = dragged(event.active.id);
    const placement = placementFor(event);
    if (!item || !placement) return;
    if (!item.rack && !isOverPlan(event)) return;
    if (!placement.valid) {
      toast.error(`Invalid rack position: ${placement.problem}`);
      return;
    }
    if (item.rack) {
      const rack = item.rack;
      if (rack.position.x === placement.x && rack.position.y === placement.y) return;
      moveRack.mutate(
        { rackId: rack.id, x: placement.x, y: placement.y, version: rack.version },
        {
          onError: (error) =>
            toast.error(`Could not move ${rack.name}; it was put back. ${errorMessages(error).join(' ')}`),
        },
      );
      return;
    }
    const read = readTemplate(template);
    if (!('rack' in read)) return;
    addRack.mutate(
      { ...read.rack, position: { x: placement.x, y: placement.y } },
      {
        onSuccess: (rack) => toast.success(`${rack.name} added.`),
        onError: (error) => toast.error(`Could not add the rack. ${errorMessages(error).join(' ')}`),
      },
    );
  }

  const openRack = list.find((r) => r.id === openRackId);

  // what a screen reader hears while a rack is dragged: its name, never an internal id
  const announcements = planAnnouncements((id) => {
    if (id === TEMPLATE_DRAG_ID) return 'the new rack';
    const rack = list.find((r) => rackDragId(r.id) === id);
    return rack ? `rack ${rack.name}` : 'the rack';
  }, 'floor plan');

  return (
    <DndContext
      sensors={sensors}
      onDragStart={throttle.cancel}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        throttle.cancel();
        setPreview(null);
      }}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'Press Space to pick up a rack, use the arrow keys to move it, and Space again to drop it. Press Enter for its info.',
        },
      }}
    >
      <div className="grid items-start gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <RackTemplate values={template} onChange={setTemplate} scale={scale} />
        </div>
        <div ref={frame} className="min-w-0 overflow-x-auto">
          <FloorCanvas ref={plan} floor={floor} scale={scale} label="Rack layout plan">
            <VaultsBlock warehouse={warehouse} floor={floor} scale={scale} />
            {list.map((rack) => (
              <PlacedRack
                key={rack.id}
                rack={rack}
                scale={scale}
                onOpen={() => {
                  if (!justDragged.current) setOpenRackId(rack.id);
                }}
              />
            ))}
            {preview && <DropPreview rect={preview} valid={preview.valid} scale={scale} />}
          </FloorCanvas>
          <p className="mt-2 text-center text-xs text-slate-600">
            {floor.width} x {floor.length} ft · 1 square = 1 ft · racks snap to walls and to other racks'
            corners within half a foot
          </p>
          <PlanItemList
            label="Racks on this floor"
            className="mt-3"
            onPick={setOpenRackId}
            items={list.map((rack) => ({
              id: rack.id,
              name: rack.name,
              detail: `${rack.position.width} x ${rack.position.length} ft, ${rack.shelves.length} shelves`,
            }))}
          />
        </div>
      </div>
      {openRack && (
        <RackInfoDialog warehouseId={warehouse.id} rack={openRack} onClose={() => setOpenRackId(null)} />
      )}
    </DndContext>
  );
}

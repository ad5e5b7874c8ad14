import {
  type Announcements,
  type DragMoveEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { forwardRef, type ReactNode, useEffect, useMemo, useRef } from 'react';
import type { Floor, Point, Rect } from '@domain/rules/rack-placement';
import { createThrottle, type Throttle } from '@/lib/throttle';
import { floorPlanStyle, usePlanScale } from '@/lib/use-plan-scale';

export const PLAN_DROP_ID = 'floor-plan';

/** The floor drawn to scale with a 1-ft grid; children are placed absolutely in pixels. */
export const FloorCanvas = forwardRef<
  HTMLDivElement,
  { floor: Floor; scale: number; label: string; children: ReactNode }
>(function FloorCanvas({ floor, scale, label, children }, ref) {
  const { setNodeRef, isOver } = useDroppable({ id: PLAN_DROP_ID });
  return (
    <div
      ref={(node) => {
        setNodeRef(node);
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      role="group"
      aria-label={label}
      className={`relative mx-auto touch-none rounded select-none border-2 bg-white transition-colors ${isOver ? 'border-accent' : 'border-slate-500'}`}
      style={floorPlanStyle(floor, scale)}
    >
      {children}
    </div>
  );
});

/** Where the dragged item's top-left corner is on the floor, in feet. */
export function dropPoint(
  event: Pick<DragMoveEvent, 'active'>,
  plan: HTMLElement | null,
  scale: number,
): Point | null {
  const rect = event.active.rect.current.translated;
  if (!rect || !plan) return null;
  const box = plan.getBoundingClientRect();
  return {
    x: (rect.left - box.left - plan.clientLeft) / scale,
    y: (rect.top - box.top - plan.clientTop) / scale,
  };
}

export function isOverPlan(event: { over: { id: string | number } | null }): boolean {
  return event.over?.id === PLAN_DROP_ID;
}

/** Mouse after a small move (so a click still clicks), touch after a short press (so the page can scroll), keyboard with Space. */
function usePlanSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 8 } }),
    useSensor(KeyboardSensor, {
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
}

/** Drag preview updates, at most one per 100 ms as the spec asks, the last one always shown. */
function useThrottle(ms: number): Throttle {
  const throttle = useMemo(() => createThrottle(ms), [ms]);
  useEffect(() => throttle.cancel, [throttle]);
  return throttle;
}

/**
 * What a floor plan that things are dragged onto needs: `frame` for the element whose width it fits (at most
 * `maxHeight` pixels tall), `plan` for its FloorCanvas, the pixels per foot, the sensors and the preview throttle.
 */
export function useDragPlan(floor: Floor, maxHeight: number) {
  const plan = useRef<HTMLDivElement>(null);
  const { ref: frame, scale } = usePlanScale(floor, maxHeight);
  const sensors = usePlanSensors();
  const throttle = useThrottle(100);
  return { plan, frame, scale, sensors, throttle };
}

/** The snapped spot a drop would take: blue when it is free, red when it is not. */
export function DropPreview({ rect, valid, scale }: { rect: Rect; valid: boolean; scale: number }) {
  return (
    <div
      data-testid="drop-preview"
      data-valid={valid}
      aria-hidden
      className={`pointer-events-none absolute z-20 rounded-sm border-2 border-dashed ${
        valid ? 'border-accent bg-accent/15' : 'border-danger bg-danger/25'
      }`}
      style={{
        left: rect.x * scale,
        top: rect.y * scale,
        width: rect.width * scale,
        height: rect.length * scale,
      }}
    />
  );
}

const capital = (text: string) => text.replace(/^./, (c) => c.toUpperCase());

/**
 * What a screen reader hears while something is dragged on a plan: its name (from `nameOf`, e.g. 'rack North
 * Shelving' or 'the field grid'), never dnd-kit's internal ids.
 */
export function planAnnouncements(nameOf: (id: string | number) => string, plan: string): Announcements {
  return {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}. Arrow keys move it, Space drops it.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${capital(nameOf(active.id))} is over the ${plan}.`
        : `${capital(nameOf(active.id))} is off the ${plan}.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Dropped ${nameOf(active.id)} on the ${plan}.`
        : `Dropped ${nameOf(active.id)} off the ${plan}; nothing changed.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled; it is back where it was.`,
  };
}

/**
 * A thing dragged onto the plan (the field grid, a rack): its drag handle's props for a `<button>`, whether it is being
 * dragged, and its offset while it is.
 */
export function useDragButton(id: string) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id });
  return {
    button: { ref: setNodeRef, type: 'button' as const, ...listeners, ...attributes },
    isDragging,
    offset: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
  };
}

import { fieldGridSize } from '@domain/rules/field-grid-floor';

interface VaultsBlockProps {
  /** the warehouse's field grid: its rows and columns and where it stands on the floor */
  warehouse: { rows: number; cols: number; fieldgridLocation: { x: number; y: number } };
  floor: { width: number; length: number };
  /** pixels per foot */
  scale: number;
}

/** The VAULTS field block drawn on a floor plan (Rack View and the rack layout editor), cut at the walls. */
export function VaultsBlock({ warehouse, floor, scale }: VaultsBlockProps) {
  const block = fieldGridSize(warehouse);
  return (
    <div
      aria-hidden
      className="absolute flex items-center justify-center border border-dashed border-primary/50 bg-field-empty/80 text-xs font-bold tracking-widest text-primary/70"
      style={{
        left: warehouse.fieldgridLocation.x * scale,
        top: warehouse.fieldgridLocation.y * scale,
        width: Math.min(block.width, floor.width) * scale,
        height: Math.min(block.length, floor.length) * scale,
      }}
    >
      VAULTS
    </div>
  );
}

import { describe, expect, it } from 'vitest';
import {
  clampToFloor,
  rackTitle,
  fieldBlockObstacle,
  firstFreeRun,
  fittingSlots,
  freeSpots,
  palletFits,
  placeRack,
  placementProblem,
  planScale,
  rackFootprint,
  racksCollide,
  shelfCells,
  snapToRackCorners,
} from './rack-placement';

const floor = { width: 100, length: 50 };

describe('rack footprint and orientation', () => {
  it('lays a horizontal rack with its width along x and turns a vertical one', () => {
    expect(rackFootprint({ width: 12, length: 4, orientation: 'horizontal' })).toEqual({
      width: 12,
      length: 4,
    });
    expect(rackFootprint({ width: 12, length: 4, orientation: 'vertical' })).toEqual({
      width: 4,
      length: 12,
    });
  });

  it('a vertical rack that fits lengthwise is refused where only the horizontal one fits', () => {
    const narrow = { width: 20, length: 10 };
    const vertical = rackFootprint({ width: 12, length: 4, orientation: 'vertical' });
    expect(placementProblem({ x: 0, y: 0, ...vertical }, narrow, [])).toBe(
      'the rack is larger than the warehouse floor.',
    );
    const horizontal = rackFootprint({ width: 12, length: 4, orientation: 'horizontal' });
    expect(placementProblem({ x: 0, y: 0, ...horizontal }, narrow, [])).toBeNull();
  });
});

describe('clamp and wall snap', () => {
  const size = { width: 12, length: 4 };

  it('keeps the footprint inside the walls', () => {
    expect(clampToFloor({ x: -5, y: -3 }, size, floor)).toEqual({ x: 0, y: 0 });
    expect(clampToFloor({ x: 95, y: 49 }, size, floor)).toEqual({ x: 88, y: 46 });
    expect(clampToFloor({ x: 30, y: 20 }, size, floor)).toEqual({ x: 30, y: 20 });
  });

  it('pulls a rack onto a wall within half a foot', () => {
    expect(clampToFloor({ x: 0.4, y: 0.3 }, size, floor)).toEqual({ x: 0, y: 0 });
    expect(clampToFloor({ x: 87.6, y: 45.7 }, size, floor)).toEqual({ x: 88, y: 46 });
    expect(clampToFloor({ x: 0.6, y: 45.4 }, size, floor)).toEqual({ x: 0.6, y: 45.4 });
  });
});

describe('corner snap', () => {
  const placed = { x: 10, y: 10, width: 12, length: 4 };

  it('moves the nearest corner onto a placed rack corner within half a foot', () => {
    // dragged rack's top-left near the placed rack's top-right corner (22, 10)
    expect(snapToRackCorners({ x: 22.3, y: 9.6, width: 12, length: 4 }, [placed])).toEqual({ x: 22, y: 10 });
    // dragged rack's top-left near the placed rack's bottom-left corner (10, 14)
    expect(snapToRackCorners({ x: 9.8, y: 14.4, width: 12, length: 4 }, [placed])).toEqual({ x: 10, y: 14 });
  });

  it('leaves a rack alone when no corner is close in both axes', () => {
    expect(snapToRackCorners({ x: 22.3, y: 12, width: 12, length: 4 }, [placed])).toEqual({ x: 22.3, y: 12 });
    expect(snapToRackCorners({ x: 40, y: 30, width: 12, length: 4 }, [])).toEqual({ x: 40, y: 30 });
  });

  it('takes the closest of several candidate corners', () => {
    const other = { x: 22.2, y: 10.2, width: 4, length: 4 };
    expect(snapToRackCorners({ x: 22.25, y: 10.25, width: 12, length: 4 }, [placed, other])).toEqual({
      x: 22.2,
      y: 10.2,
    });
  });
});

describe('collision', () => {
  const a = { x: 10, y: 10, width: 12, length: 4 };

  it('refuses an overlap of more than half a foot in both axes', () => {
    expect(racksCollide(a, { x: 20, y: 12, width: 12, length: 4 })).toBe(true);
    expect(racksCollide(a, { ...a })).toBe(true);
  });

  it('allows touching racks and overlaps within the tolerance', () => {
    expect(racksCollide(a, { x: 22, y: 10, width: 12, length: 4 })).toBe(false);
    expect(racksCollide(a, { x: 21.6, y: 10, width: 12, length: 4 })).toBe(false);
    expect(racksCollide(a, { x: 10, y: 13.5, width: 12, length: 4 })).toBe(false);
    expect(racksCollide(a, { x: 40, y: 40, width: 2, length: 2 })).toBe(false);
  });

  it('names the rack in the way and refuses racks outside the walls', () => {
    expect(placementProblem({ x: 15, y: 11, width: 12, length: 4 }, floor, [{ ...a, name: 'R1' }])).toBe(
      'it overlaps Rack R1.',
    );
    expect(placementProblem({ x: 95, y: 0, width: 12, length: 4 }, floor, [])).toBe(
      'the rack must stay inside the warehouse walls.',
    );
    expect(placementProblem({ x: 0, y: 0, width: 12, length: 4 }, { width: 0, length: 0 }, [])).toBe(
      'set the warehouse length and width first.',
    );
  });
});

describe('placeRack', () => {
  const size = { width: 12, length: 4 };
  const placed = [{ x: 10, y: 10, width: 12, length: 4, name: 'A' }];

  it('snaps to a corner, clamps, and reports a valid spot', () => {
    const result = placeRack({ x: 22.4, y: 10.3 }, size, floor, placed);
    expect(result).toMatchObject({ x: 22, y: 10, valid: true, problem: null });
  });

  it('clamps a drop past the wall and then snaps it onto the wall', () => {
    expect(placeRack({ x: 99, y: -2 }, size, floor, [])).toMatchObject({ x: 88, y: 0, valid: true });
  });

  it('marks a drop on top of another rack invalid', () => {
    const result = placeRack({ x: 14, y: 11 }, size, floor, placed);
    expect(result.valid).toBe(false);
    expect(result.problem).toBe('it overlaps Rack A.');
    // a rack named 'Rack C' is not 'rack Rack C'
    const named = placed.map((rack) => ({ ...rack, name: `Rack ${rack.name}` }));
    expect(placeRack({ x: 14, y: 11 }, size, floor, named).problem).toBe('it overlaps Rack A.');
  });
});

describe('pallets on a shelf', () => {
  const pallets = [
    { id: 1, slotIndex: 0, spots: 2 },
    { id: 2, slotIndex: 3, spots: 1 },
  ];

  it('counts free space in spots and ignores the pallet being edited', () => {
    expect(freeSpots(5, pallets)).toBe(2);
    expect(freeSpots(5, pallets, 1)).toBe(4);
    expect(freeSpots(2, pallets)).toBe(0);
  });

  it('refuses too many spots, a run past the end, and an overlap', () => {
    expect(palletFits(5, pallets, { slotIndex: 2, spots: 1 })).toEqual({ ok: true });
    expect(palletFits(5, pallets, { slotIndex: 2, spots: 3 })).toEqual({ ok: false, reason: 'space' });
    expect(palletFits(5, pallets, { slotIndex: 4, spots: 2 })).toEqual({ ok: false, reason: 'range' });
    expect(palletFits(5, pallets, { slotIndex: 2, spots: 2 })).toEqual({ ok: false, reason: 'overlap' });
    // growing pallet 1 into slot 2 is fine; into slot 3 it meets pallet 2
    expect(palletFits(5, pallets, { slotIndex: 0, spots: 3 }, 1)).toEqual({ ok: true });
    expect(palletFits(5, pallets, { slotIndex: 0, spots: 4 }, 1)).toEqual({ ok: false, reason: 'overlap' });
  });

  it('finds the first run of free slots', () => {
    expect(firstFreeRun(5, pallets, 1)).toBe(2);
    expect(firstFreeRun(6, pallets, 2)).toBe(4);
    expect(firstFreeRun(5, pallets, 2)).toBeNull();
  });

  it('lists every slot a pallet can start at, its own spots free when it is the one moving', () => {
    expect(fittingSlots(6, pallets, 1)).toEqual([2, 4, 5]);
    expect(fittingSlots(5, pallets, 2)).toEqual([]);
    // pallet 1 (2 spots at slot 0) moving along its own shelf
    expect(fittingSlots(5, pallets, 2, 1)).toEqual([0, 1]);
    expect(firstFreeRun(5, pallets, 2, 1)).toBe(0);
  });

  it('lays a shelf out as pallet spans and free cells', () => {
    expect(shelfCells(5, pallets)).toEqual([
      { kind: 'pallet', slotIndex: 0, spots: 2, palletIndex: 0 },
      { kind: 'free', slotIndex: 2 },
      { kind: 'pallet', slotIndex: 3, spots: 1, palletIndex: 1 },
      { kind: 'free', slotIndex: 4 },
    ]);
    expect(shelfCells(0, [])).toEqual([]);
  });
});

describe('plan scale', () => {
  it('draws 10 px per foot when there is room and scales down to fit otherwise', () => {
    expect(planScale({ width: 50, length: 40 }, { width: 1200, height: 600 })).toBe(10);
    expect(planScale({ width: 200, length: 100 }, { width: 1000, height: 800 })).toBe(5);
    expect(planScale({ width: 100, length: 200 }, { width: 1000, height: 600 })).toBe(3);
    expect(planScale({ width: 0, length: 0 }, { width: 1000, height: 600 })).toBe(10);
  });
});

describe('the VAULTS field block', () => {
  it('is an obstacle of 5 ft per column and row at the grid location, none without fields', () => {
    expect(fieldBlockObstacle({ rows: 3, cols: 2, x: 10, y: 4 })).toEqual([
      { x: 10, y: 4, width: 10, length: 15, label: 'the VAULTS field block' },
    ]);
    expect(fieldBlockObstacle({ rows: 0, cols: 0, x: 0, y: 0 })).toEqual([]);
  });

  it('refuses a rack on the block like an overlap, and allows one beside it', () => {
    const block = fieldBlockObstacle({ rows: 3, cols: 2, x: 10, y: 4 });
    expect(placementProblem({ x: 12, y: 6, width: 8, length: 3 }, floor, block)).toBe(
      'it overlaps the VAULTS field block.',
    );
    expect(placementProblem({ x: 20, y: 6, width: 8, length: 3 }, floor, block)).toBeNull();
    expect(placeRack({ x: 12, y: 6 }, { width: 8, length: 3 }, floor, block).valid).toBe(false);
  });
});

describe('rackTitle', () => {
  it('puts "Rack" before a name that does not start with it', () => {
    expect(rackTitle('C')).toBe('Rack C');
    expect(rackTitle('Overflow')).toBe('Rack Overflow');
    expect(rackTitle('Rack A')).toBe('Rack A');
    expect(rackTitle('RACK 7')).toBe('RACK 7');
    expect(rackTitle('Racking bay')).toBe('Rack Racking bay');
  });
});

/** Feet per field on the floor plan (spec 9: a vault cell is 5 ft per row or column). */
export const FIELD_CELL_FT = 5;

type Grid = { rows: number; cols: number };
type Floor = { width: number; length: number };

/** The field grid block on the floor: cols x 5 ft wide, rows x 5 ft long. */
export function fieldGridSize(grid: Grid): Floor {
  return { width: grid.cols * FIELD_CELL_FT, length: grid.rows * FIELD_CELL_FT };
}

/**
 * Keeps the field grid block inside the walls; a block larger than the floor (a warehouse from before the floor had
 * to hold it) stays at the wall it starts from.
 */
export function clampFieldGrid(
  point: { x: number; y: number },
  grid: Grid,
  floor: Floor,
): { x: number; y: number } {
  const size = fieldGridSize(grid);
  const clamp = (v: number, extent: number, wall: number) =>
    Math.min(Math.max(v, 0), Math.max(0, wall - extent));
  return { x: clamp(point.x, size.width, floor.width), y: clamp(point.y, size.length, floor.length) };
}

/** A floor is measured when both its sides are above 0; until then (both 0) the grid is not placed on it (spec 2.8). */
export function floorMeasured(floor: Floor): boolean {
  return floor.width > 0 && floor.length > 0;
}

/** The most columns and rows a measured floor has room for; null while it is not measured. */
export function fieldGridRoom(floor: Floor): Grid | null {
  if (!floorMeasured(floor)) return null;
  return {
    cols: Math.floor(floor.width / FIELD_CELL_FT),
    rows: Math.floor(floor.length / FIELD_CELL_FT),
  };
}

export interface FloorProblem {
  /** the side of the floor the problem is about, where a form shows it */
  side: 'width' | 'length';
  message: string;
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Why a field grid cannot be laid out on a floor: one side measured and the other not, or a grid wider or longer
 * than the measured floor (each field is 5 x 5 ft). Empty when it can: the grid fits, or the floor is not measured
 * yet (both sides 0).
 */
export function fieldGridFloorProblems(grid: Grid, floor: Floor): FloorProblem[] {
  if (floor.width > 0 !== floor.length > 0) {
    return [
      {
        side: floor.width > 0 ? 'length' : 'width',
        message: 'Give both the length and the width, or leave both at 0 while the floor is not measured.',
      },
    ];
  }
  if (!floorMeasured(floor)) return [];
  const size = fieldGridSize(grid);
  const problems: FloorProblem[] = [];
  if (size.width > floor.width) {
    problems.push({
      side: 'width',
      message: `The field grid is ${size.width} ft wide (${count(grid.cols, 'column')} of ${FIELD_CELL_FT} ft), wider than the ${floor.width} ft floor. Make the floor wider or use fewer columns.`,
    });
  }
  if (size.length > floor.length) {
    problems.push({
      side: 'length',
      message: `The field grid is ${size.length} ft long (${count(grid.rows, 'row')} of ${FIELD_CELL_FT} ft), longer than the ${floor.length} ft floor. Make the floor longer or use fewer rows.`,
    });
  }
  return problems;
}

export type FillLevel = 'empty' | 'success' | 'warning' | 'full';

/** Fill colour of a field tile (spec 4.1). */
export function fieldFillLevel(vaultCount: number, capacity: number, fullFlag: boolean): FillLevel {
  if (fullFlag || (capacity > 0 && vaultCount >= capacity)) return 'full';
  if (vaultCount > capacity / 2) return 'warning';
  if (vaultCount > 0) return 'success';
  return 'empty';
}

/** Occupancy percent of a warehouse: real (non-EMPTY) vaults over capacity, rounded; 0 when there is no capacity. */
export function occupancyPercent(realVaultCount: number, capacity: number): number {
  if (capacity <= 0) return 0;
  return Math.round((realVaultCount / capacity) * 100);
}

export type OccupancyColour = 'red' | 'orange' | 'yellow' | 'green';

export function occupancyColour(percent: number): OccupancyColour {
  if (percent >= 75) return 'red';
  if (percent >= 50) return 'orange';
  if (percent >= 25) return 'yellow';
  return 'green';
}

/** Rack colour by fill ratio (spec 4.4). */
export function rackFillLevel(occupiedSpots: number, totalSlots: number): Exclude<FillLevel, 'empty'> {
  if (totalSlots <= 0) return 'success';
  const ratio = occupiedSpots / totalSlots;
  if (ratio >= 1) return 'full';
  if (ratio > 0.5) return 'warning';
  return 'success';
}

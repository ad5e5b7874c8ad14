/**
 * Why a member who may not work a warehouse check (a Viewer, the Office role: `POST /api/checks...` needs Floor or a
 * Manager) sees none of its controls: true for each of them, so it sends neither to ask for another role.
 */
export const CHECKS_ARE_FLOOR_WORK =
  'Warehouse checks are floor work: a member with the Floor role or a Manager starts, scans and resolves them.';

/**
 * What a member of a company may do (issue 14). Each role can do everything the one before it can:
 * a Viewer reads, prints and exports; Floor also does the vault, pallet, stage and checklist work;
 * a Manager also changes warehouses, their layout and racks, administers checklists and the team.
 */
export const ROLES = ['viewer', 'floor', 'manager'] as const;
export type Role = (typeof ROLES)[number];

/** What a route asks of its caller: nothing ('public'), or at least the given role. */
export type RoleRequirement = Role | 'public';

export const ROLE_LABELS: Record<Role, string> = { viewer: 'Viewer', floor: 'Floor', manager: 'Manager' };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether a member with `role` may do what needs `needed`. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** The refusal a member sees when their role is not enough. */
export function roleRefusal(needed: Role): string {
  return needed === 'manager'
    ? 'Only a Manager can do this. Ask a Manager of your company.'
    : 'Your role can only view. Ask a Manager for the Floor role to change vaults and pallets.';
}

/**
 * What a member of a company may do (issues 14 and 28). A Viewer reads, prints and exports; Floor also does the
 * vault, pallet, stage and checklist work; Office (issue 28) reads like a Viewer and also runs storage billing:
 * accounts, rates, billing runs, invoices and payments, but no floor work and no layout changes; a Manager does
 * everything. Only Office and Manager see amounts of money: Floor and Viewer never do.
 */
export const ROLES = ['viewer', 'floor', 'office', 'manager'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route asks of its caller: nothing ('public'), a role that allows it (`roleAllows`), or a customer's portal
 * session ('portal', issue 29), which no staff session is and which reaches no staff route.
 */
export type RoleRequirement = Role | 'public' | 'portal';

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  floor: 'Floor',
  office: 'Office',
  manager: 'Manager',
};

/** The roles that may do what needs each role: everyone reads; floor and office work apart; a Manager all. */
const ALLOWED: Record<Role, readonly Role[]> = {
  viewer: ROLES,
  floor: ['floor', 'manager'],
  office: ['office', 'manager'],
  manager: ['manager'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether a member with `role` may do what needs `needed`. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ALLOWED[needed].includes(role);
}

/** Whether a member with `role` sees amounts of money (balances, rates, invoices). */
export function seesAmounts(role: Role): boolean {
  return roleAllows(role, 'office');
}

/** The refusal a member sees when their role is not enough. */
export function roleRefusal(needed: Role): string {
  if (needed === 'manager') return 'Only a Manager can do this. Ask a Manager of your company.';
  if (needed === 'office') return 'Only the Office role or a Manager can see and change billing.';
  return 'Your role can only view. Ask a Manager for the Floor role to change vaults and pallets.';
}

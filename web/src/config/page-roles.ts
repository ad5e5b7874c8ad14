import type { Role } from '@domain/rules/roles';
import { paths } from './paths';

export interface PageRole {
  needed: Exclude<Role, 'viewer'>;
  /** the page's title, shown above the reason */
  title: string;
  /** why a member below may not open it; the role's general sentence when absent */
  why?: string;
}

/**
 * The pages a member below the named role may not open, in one place as the server's route table is
 * (server/auth/route-roles.ts): a member below sees the page's title and why, and the page is not drawn, so it sends
 * no request only to be refused. A page not listed is open to every member (it hides or disables what the role may
 * not do).
 */
const PAGE_ROLES: Record<string, PageRole> = {
  [paths.team]: { needed: 'manager', title: 'Team', why: 'Only a Manager can see and change the team.' },
  [paths.backups]: {
    needed: 'manager',
    title: 'Backups',
    why: 'Only a Manager can download the company file.',
  },
  [paths.apiReference]: {
    needed: 'manager',
    title: 'API reference',
    why: 'Only a Manager can read the API reference.',
  },
  [paths.addWarehouse]: {
    needed: 'manager',
    title: 'Add Warehouse',
    why: 'Only a Manager can add a warehouse.',
  },
  [paths.messages]: {
    needed: 'manager',
    title: 'Messages',
    why: "Only a Manager reads the messages sent through the landing page's contact form.",
  },
  [paths.import]: {
    needed: 'manager',
    title: 'Import',
    why: 'Only a Manager can import vaults and pallets.',
  },
  [paths.receive]: {
    needed: 'floor',
    title: 'Receive shipment',
    why: 'Receiving a shipment is floor work: a member with the Floor role or a Manager does it.',
  },
  // every tab of the Billing page
  [paths.billing()]: { needed: 'office', title: 'Billing' },
  [paths.customers]: {
    needed: 'office',
    title: 'Customers',
    why: 'Only the Office role or a Manager can see customers and send portal links.',
  },
  [paths.requests]: {
    needed: 'office',
    title: 'Requests',
    why: "Only the Office role or a Manager can see customers' requests.",
  },
};

/** The role the page at this address needs, if it is one a role below may not open. */
export function pageRoleOf(pathname: string): PageRole | undefined {
  const billing = paths.billing();
  const path = pathname.replace(/(.)\/+$/, '$1');
  return PAGE_ROLES[path.startsWith(`${billing}/`) ? billing : path];
}

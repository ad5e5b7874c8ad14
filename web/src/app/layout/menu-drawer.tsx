import * as RadixDialog from '@radix-ui/react-dialog';
import {
  Archive,
  BookOpen,
  ReceiptText,
  ClipboardCheck,
  FileUp,
  Forklift,
  History,
  ListChecks,
  PackagePlus,
  ScanSearch,
  LogOut,
  Mail,
  Printer,
  BarChart3,
  UserRound,
  Users,
  Warehouse,
  X,
  Contact,
  Inbox,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { NavLink } from 'react-router';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { useContactMessages } from '../../api/contact';
import { useRole } from '../../api/session';
import { ProfileDialog } from '../../features/team/components/profile-dialog';
import { pageRoleOf } from '../../config/page-roles';
import { paths } from '../../config/paths';

function MenuLink({
  to,
  icon,
  children,
  onNavigate,
}: {
  to: string;
  icon: ReactNode;
  children: ReactNode;
  onNavigate: () => void;
}) {
  // a page the member's role may not open is not offered (the same table the app layout gates pages with)
  const { can } = useRole();
  const gate = pageRoleOf(to);
  if (gate && !can(gate.needed)) return null;
  return (
    <NavLink
      to={to}
      onClick={onNavigate}
      className={({ isActive }) =>
        `flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium pointer-coarse:min-h-11 ${isActive ? 'bg-accent/10 text-blue-800' : 'text-slate-700 hover:bg-slate-100'}`
      }
    >
      {icon}
      <span className="truncate">{children}</span>
    </NavLink>
  );
}

export function MenuDrawer({
  open,
  onOpenChange,
  warehouses,
  warehousesLoading,
  onLogout,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  warehouses: WarehouseSummaryDto[];
  warehousesLoading: boolean;
  onLogout: () => void;
}) {
  const close = () => onOpenChange(false);
  const iconClass = 'h-4 w-4 shrink-0';
  // the contact inbox is the operator's: its link shows only to those the server lets read it
  const { can } = useRole();
  const inbox = useContactMessages(open && can('manager'));
  const [profileOpen, setProfileOpen] = useState(false);
  return (
    <>
      <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
        <RadixDialog.Portal>
          <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
          <RadixDialog.Content
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-2xl focus:outline-none"
          >
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-4">
              <RadixDialog.Title className="text-lg font-bold text-primary">Menu</RadixDialog.Title>
              <RadixDialog.Close
                aria-label="Close menu"
                className="flex items-center justify-center rounded p-1 text-slate-600 hover:bg-slate-100 pointer-coarse:h-11 pointer-coarse:w-11"
              >
                <X className="h-5 w-5" aria-hidden />
              </RadixDialog.Close>
            </div>
            <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto p-3">
              <p className="px-3 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                Warehouses
              </p>
              {warehousesLoading && <p className="px-3 py-2 text-sm text-slate-600">Loading warehouses...</p>}
              {!warehousesLoading && warehouses.length === 0 && (
                <p className="px-3 py-2 text-sm text-slate-600">No warehouses yet</p>
              )}
              {warehouses.map((w) => (
                <MenuLink
                  key={w.id}
                  to={paths.warehouse(w.name)}
                  icon={<Warehouse className={iconClass} />}
                  onNavigate={close}
                >
                  {w.name}
                </MenuLink>
              ))}
              <div className="my-3 border-t border-slate-200" />
              <MenuLink to={paths.stage} icon={<Forklift className={iconClass} />} onNavigate={close}>
                Stage
              </MenuLink>
              <MenuLink to={paths.pullLists} icon={<ListChecks className={iconClass} />} onNavigate={close}>
                Pull lists
              </MenuLink>
              <MenuLink to={paths.checks} icon={<ScanSearch className={iconClass} />} onNavigate={close}>
                Checks
              </MenuLink>
              <MenuLink to={paths.receive} icon={<PackagePlus className={iconClass} />} onNavigate={close}>
                Receive shipment
              </MenuLink>
              <MenuLink to={paths.statistics} icon={<BarChart3 className={iconClass} />} onNavigate={close}>
                Statistics
              </MenuLink>
              <MenuLink to={paths.printStudio} icon={<Printer className={iconClass} />} onNavigate={close}>
                Print Studio
              </MenuLink>
              <MenuLink to={paths.import} icon={<FileUp className={iconClass} />} onNavigate={close}>
                Import
              </MenuLink>
              <MenuLink
                to={paths.checklistsAdmin}
                icon={<ClipboardCheck className={iconClass} />}
                onNavigate={close}
              >
                Warehouse Checklists
              </MenuLink>
              <MenuLink to={paths.activity} icon={<History className={iconClass} />} onNavigate={close}>
                Activity
              </MenuLink>
              <MenuLink to={paths.billing()} icon={<ReceiptText className={iconClass} />} onNavigate={close}>
                Billing
              </MenuLink>
              <MenuLink to={paths.customers} icon={<Contact className={iconClass} />} onNavigate={close}>
                Customers
              </MenuLink>
              <MenuLink to={paths.requests} icon={<Inbox className={iconClass} />} onNavigate={close}>
                Requests
              </MenuLink>
              <MenuLink to={paths.team} icon={<Users className={iconClass} />} onNavigate={close}>
                Team
              </MenuLink>
              <MenuLink to={paths.backups} icon={<Archive className={iconClass} />} onNavigate={close}>
                Backups
              </MenuLink>
              <MenuLink to={paths.apiReference} icon={<BookOpen className={iconClass} />} onNavigate={close}>
                API reference
              </MenuLink>
              {inbox.isSuccess && (
                <MenuLink to={paths.messages} icon={<Mail className={iconClass} />} onNavigate={close}>
                  Messages{inbox.data.length > 0 && ` (${inbox.data.length})`}
                </MenuLink>
              )}
            </nav>
            <div className="border-t border-slate-200 p-3">
              <button
                type="button"
                onClick={() => {
                  close();
                  setProfileOpen(true);
                }}
                className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 pointer-coarse:min-h-11"
              >
                <UserRound className={iconClass} /> My profile
              </button>
              <button
                type="button"
                onClick={() => {
                  close();
                  onLogout();
                }}
                className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-danger hover:bg-red-50 pointer-coarse:min-h-11"
              >
                <LogOut className={iconClass} /> Logout
              </button>
            </div>
          </RadixDialog.Content>
        </RadixDialog.Portal>
      </RadixDialog.Root>
      {profileOpen && <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />}
    </>
  );
}

import { Lock } from 'lucide-react';
import type { Role } from '@domain/rules/roles';

const HINTS: Record<Exclude<Role, 'viewer'>, string> = {
  floor: 'Your role can only view. A Manager can give you the Floor role to change vaults and pallets.',
  office: 'Only the Office role or a Manager can see and change billing.',
  manager: 'Only a Manager can change this.',
};

/** Says why a control is missing or disabled: the member's role does not allow it. */
export function RoleHint({ needed, children }: { needed: Exclude<Role, 'viewer'>; children?: string }) {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600" role="note">
      <Lock className="h-4 w-4 shrink-0" aria-hidden />
      {children ?? HINTS[needed]}
    </p>
  );
}

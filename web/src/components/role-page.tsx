import type { ReactNode } from 'react';
import type { Role } from '@domain/rules/roles';
import { useRole } from '../api/session';
import { Page } from './ui/page';
import { RoleHint } from './ui/role-hint';

/**
 * A page for one role and those above it. A member below sees the page's title and why it is not theirs, and the
 * page itself is not drawn, so none of its queries is sent only to be refused.
 */
export function RolePage({
  needed,
  title,
  why,
  children,
}: {
  needed: Exclude<Role, 'viewer'>;
  title: string;
  /** the sentence under the title; the role's general one when absent */
  why?: string;
  children: ReactNode;
}) {
  const { can } = useRole();
  if (!can(needed))
    return (
      <Page title={title}>
        <RoleHint needed={needed}>{why}</RoleHint>
      </Page>
    );
  return children;
}

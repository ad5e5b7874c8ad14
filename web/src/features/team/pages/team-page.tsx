import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ROLES, ROLE_LABELS, type Role } from '../../../../../domain/rules/roles';
import type { MemberDto, MemberLinkDto, PendingResetDto } from '../../../../../domain/schemas/team.schema';
import { useRole, useSession } from '../../../api/session';
import { useChangeMember, useInvite, useResetLink, useTeam } from '../../../api/team';
import { Button } from '../../../components/ui/button';
import { ErrorList, QueryFailed } from '../../../components/ui/error-list';
import { FormField, inputClass } from '../../../components/ui/form-field';
import { Page } from '../../../components/ui/page';
import { RoleHint } from '../../../components/ui/role-hint';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessages } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { OneTimeLink } from '../components/one-time-link';
import { RevokeLinkButton } from '../components/revoke-link-button';
import { LabelledOptions } from '../../../components/ui/named-options';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const ROLE_HELP: Record<Role, string> = {
  manager: 'everything, including warehouses, layout, checklists and the team',
  office: 'storage billing: accounts, rates, billing runs, invoices and payments; reads like a Viewer',
  floor: 'vaults, pallets, the stage, full fields and checklist answers',
  viewer: 'reads, prints and exports; changes nothing',
};

/** `openLinks`: the ids of the links that still work (undefined while the team loads); a revoked link is hidden. */
function InviteForm({ openLinks }: { openLinks: Set<number> | undefined }) {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('floor');
  const [link, setLink] = useState<MemberLinkDto | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setLink(null);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (created) => {
          setLink(created);
          setEmail('');
        },
      },
    );
  }

  return (
    <section
      aria-labelledby="invite-title"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="invite-title" className="text-lg font-bold text-primary">
        Invite a member
      </h2>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Invite a member"
        className="flex flex-wrap items-end gap-3"
      >
        <FormField label="Email" className="min-w-60 flex-1">
          <input
            type="email"
            name="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
          />
        </FormField>
        <FormField label="Role" hint={ROLE_HELP[role]} className="min-w-60">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)} className={inputClass}>
            <LabelledOptions values={ROLES} labels={ROLE_LABELS} />
          </select>
        </FormField>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Creating link...' : 'Create invitation link'}
        </Button>
      </form>
      {invite.isError && <ErrorList messages={errorMessages(invite.error)} />}
      {link && (openLinks === undefined || openLinks.has(link.id)) && (
        <OneTimeLink link={link} label="Invitation link" />
      )}
    </section>
  );
}

function MemberRow({
  member,
  isMe,
  openReset,
}: {
  member: MemberDto;
  isMe: boolean;
  /** the member's password link that still works, if any */
  openReset: PendingResetDto | undefined;
}) {
  const change = useChangeMember();
  const reset = useResetLink();
  const fail = (error: unknown) => toast.error(errorMessages(error).join(' '));
  return (
    <tr className="border-t border-slate-100 align-top" data-testid="member-row">
      <td className="px-3 py-3">
        <p className="font-semibold text-slate-800">
          {member.name}
          {isMe && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
        </p>
        <p className="text-xs text-slate-500">{member.email}</p>
      </td>
      <td className="px-3 py-3">
        <select
          aria-label={`Role of ${member.name}`}
          value={member.role}
          disabled={change.isPending}
          onChange={(e) =>
            change.mutate(
              { id: member.id, role: e.target.value as Role },
              {
                onSuccess: (m) => toast.success(`${m.name} is now ${ROLE_LABELS[m.role]}`),
                onError: fail,
              },
            )
          }
          className={`${inputClass} min-w-[8rem]`}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </td>
      <td className="px-3 py-3 text-sm text-slate-600">
        {member.lastSignInAt ? when.format(new Date(member.lastSignInAt)) : 'Never'}
      </td>
      <td className="px-3 py-3 text-sm">
        <span className={member.active ? 'text-green-700' : 'text-slate-500'}>
          {member.active ? 'Active' : 'Deactivated'}
        </span>
      </td>
      <td className="space-y-2 px-3 py-3">
        <div className="flex flex-wrap gap-2">
          <Button
            variant={member.active ? 'danger' : 'secondary'}
            disabled={change.isPending}
            onClick={() =>
              change.mutate(
                { id: member.id, active: !member.active },
                {
                  onSuccess: (m) =>
                    toast.success(m.active ? `${m.name} can sign in again` : `${m.name} is signed out`),
                  onError: fail,
                },
              )
            }
          >
            {member.active ? 'Deactivate' : 'Reactivate'}
          </Button>
          {member.active && (
            <Button
              variant="secondary"
              disabled={reset.isPending}
              onClick={() => reset.mutate(member.id, { onError: fail })}
            >
              Reset password
            </Button>
          )}
        </div>
        {reset.data && openReset?.id === reset.data.id && (
          <OneTimeLink link={reset.data} label={`Password link for ${member.name}`} />
        )}
        {openReset && (
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <span>Password link open until {when.format(new Date(openReset.expiresAt))}</span>
            <RevokeLinkButton linkId={openReset.id} what={`the password link for ${member.name}`} />
          </div>
        )}
      </td>
    </tr>
  );
}

/** /team: the company's members with their role, last sign-in and status; invitations and password links. */
export default function TeamPage() {
  useDocumentTitle('Team');
  const { can } = useRole();
  const session = useSession();
  const team = useTeam();
  if (!can('manager'))
    return (
      <Page title="Team">
        <RoleHint needed="manager">Only a Manager can see and change the team.</RoleHint>
      </Page>
    );
  return (
    <Page title="Team">
      <div className="space-y-6">
        <InviteForm
          openLinks={team.isSuccess ? new Set(team.data.invites.map((invite) => invite.id)) : undefined}
        />
        {team.isPending && <Spinner label="Loading the team..." />}
        {team.isError && <QueryFailed query={team} />}
        {team.isSuccess && (
          <section
            aria-labelledby="members-title"
            className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            <h2 id="members-title" className="px-5 pt-5 text-lg font-bold text-primary">
              Members
            </h2>
            <table className="mt-3 w-full min-w-[44rem] text-left">
              <thead className="text-xs tracking-wide text-slate-500 uppercase">
                <tr>
                  <th className="px-3 py-2">Member</th>
                  <th className="px-3 py-2">Role</th>
                  <th className="px-3 py-2">Last sign-in</th>
                  <th className="px-3 py-2">Status</th>
                  <th className="px-3 py-2">Actions</th>
                </tr>
              </thead>
              <tbody>
                {team.data.members.map((member) => (
                  <MemberRow
                    key={member.id}
                    member={member}
                    isMe={member.id === session.data?.id}
                    openReset={team.data.resets.find((r) => r.memberId === member.id)}
                  />
                ))}
              </tbody>
            </table>
            {team.data.invites.length > 0 && (
              <div className="border-t border-slate-100 p-5">
                <h3 id="invites-title" className="text-sm font-semibold text-slate-700">
                  Open invitations
                </h3>
                <ul aria-labelledby="invites-title" className="mt-2 space-y-2 text-sm text-slate-600">
                  {team.data.invites.map((invite) => (
                    <li
                      key={invite.id}
                      data-testid="open-invite"
                      className="flex flex-wrap items-center justify-between gap-2"
                    >
                      <span>
                        {invite.email} as {ROLE_LABELS[invite.role]}, until{' '}
                        {when.format(new Date(invite.expiresAt))}
                      </span>
                      <RevokeLinkButton linkId={invite.id} what={`the invitation for ${invite.email}`} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </section>
        )}
      </div>
    </Page>
  );
}

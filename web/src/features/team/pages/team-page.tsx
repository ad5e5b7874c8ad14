import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { COMPANY_LOCALES, type CompanyLocale, DEFAULT_LOCALE, LOCALE_LABELS } from '@domain/rules/locale';
import { ROLES, ROLE_LABELS, type Role } from '@domain/rules/roles';
import { EMAIL_MAX_LENGTH } from '@domain/schemas/form-values';
import {
  InviteSchema,
  type MemberDto,
  type MemberLinkDto,
  type PendingInviteDto,
  type PendingResetDto,
} from '@domain/schemas/team.schema';
import { useSession } from '@/api/session';
import { useChangeCompanySettings, useChangeMember, useInvite, useResetLink, useTeam } from '@/api/team';
import { Button } from '@/components/ui/button';
import { DataTable, cell } from '@/components/ui/data-table';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { QueryView } from '@/components/ui/query-view';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormIssues } from '@/lib/use-form-issues';
import { OneTimeLink } from '../components/one-time-link';
import { RevokeLinkButton } from '../components/revoke-link-button';
import { ApiTokensSection } from '../components/api-tokens-section';
import { WebhooksSection } from '../components/webhooks-section';
import { MailList } from '../components/mail-list';
import { LabelledOptions } from '@/components/ui/named-options';
import { useFormat } from '@/lib/format';
import { Panel } from '@/components/ui/panel';

const activeManagers = (members: MemberDto[]) =>
  members.filter((m) => m.role === 'manager' && m.active).length;

const ROLE_HELP: Record<Role, string> = {
  manager: 'everything, including warehouses, layout, checklists and the team',
  office: 'storage billing: accounts, rates, billing runs, invoices and payments; reads like a Viewer',
  floor: 'vaults, pallets, the stage, full fields and checklist answers',
  viewer: 'reads, prints and exports; changes nothing',
};

/**
 * `openInvites`: the invitations that still work (undefined while the team loads); a revoked link is hidden, and an
 * address listed there is renewed, not invited twice.
 */
function InviteForm({ openInvites }: { openInvites: PendingInviteDto[] | undefined }) {
  const invite = useInvite();
  const issues = useFormIssues();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('floor');
  const [link, setLink] = useState<MemberLinkDto | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setLink(null);
    const input = issues.check(InviteSchema, { email, role });
    if (!input) return;
    const renewed = openInvites?.some((open) => open.email === input.email) ?? false;
    invite.mutate(input, {
      onSuccess: (created) => {
        // with e-mail set up the link goes out by mail (the E-mail list shows its state); otherwise it is copied
        if (created.mailId)
          toast.success(
            renewed
              ? `Invitation e-mailed again to ${input.email}; the earlier link no longer works`
              : `Invitation e-mailed to ${input.email}`,
          );
        else {
          setLink(created);
          if (renewed)
            toast.success(`Invitation for ${input.email} renewed; the earlier link no longer works`);
        }
        setEmail('');
      },
    });
  }

  return (
    <Panel title="Invite a member">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Invite a member"
        className="flex flex-wrap items-end gap-3"
      >
        <FormField label="Email" error={issues.byField.email} className="min-w-60 flex-1">
          <TextInput
            type="email"
            name="email"
            autoComplete="off"
            maxLength={EMAIL_MAX_LENGTH}
            value={email}
            onValue={(value) => {
              setEmail(value);
              issues.clear();
            }}
          />
        </FormField>
        <FormField label="Role" hint={ROLE_HELP[role]} className="min-w-60">
          <SelectInput value={role} onValue={setRole}>
            <LabelledOptions values={ROLES} labels={ROLE_LABELS} />
          </SelectInput>
        </FormField>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Creating link...' : 'Create invitation link'}
        </Button>
      </form>
      {invite.isError && <ErrorList messages={errorMessages(invite.error)} />}
      {link && (openInvites === undefined || openInvites.some((open) => open.id === link.id)) && (
        <OneTimeLink link={link} label="Invitation link" />
      )}
    </Panel>
  );
}

function MemberRow({
  member,
  isMe,
  onlyManager,
  openReset,
}: {
  member: MemberDto;
  isMe: boolean;
  /** the company's only active Manager: the server refuses to demote or deactivate them, so nothing offers it */
  onlyManager: boolean;
  /** the member's password link that still works, if any */
  openReset: PendingResetDto | undefined;
}) {
  const format = useFormat();
  const change = useChangeMember();
  const reset = useResetLink();
  const fail = (error: unknown) => toast.error(errorMessages(error).join(' '));
  const whyFixed = `${isMe ? 'You are' : `${member.name} is`} the only active Manager: make another member a Manager first.`;
  const hintId = `only-manager-${member.id}`;
  return (
    <tr data-testid="member-row" aria-label={member.name}>
      <td className={`${cell} sm:max-w-64 sm:min-w-40`}>
        <p className="font-semibold break-words text-slate-800">
          {member.name}
          {isMe && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
        </p>
        {/* an address of up to 254 characters breaks anywhere; the whole of it is the title too */}
        <p className="text-xs font-normal break-all text-slate-500" title={member.email}>
          {member.email}
        </p>
      </td>
      <td className={cell}>
        <SelectInput
          aria-label={`Role of ${member.name}`}
          value={member.role}
          disabled={change.isPending || onlyManager}
          aria-describedby={onlyManager ? hintId : undefined}
          title={onlyManager ? whyFixed : undefined}
          onValue={(role) =>
            change.mutate(
              { id: member.id, role },
              {
                onSuccess: (m) => toast.success(`${m.name} is now ${ROLE_LABELS[m.role]}`),
                onError: fail,
              },
            )
          }
          className="min-w-[8rem]"
        >
          <LabelledOptions values={ROLES} labels={ROLE_LABELS} />
        </SelectInput>
      </td>
      <td className={`${cell} text-slate-600 sm:min-w-28`}>
        {member.lastSignInAt ? format.dateTime(member.lastSignInAt) : 'Never'}
      </td>
      <td className={`${cell} ${member.active ? 'text-green-700' : 'text-slate-600'}`}>
        {member.active ? 'Active' : 'Deactivated'}
      </td>
      <td className={`${cell} space-y-2 sm:min-w-48`}>
        <div className="flex flex-wrap gap-2">
          {onlyManager ? (
            <p id={hintId} className="max-w-xs text-xs text-slate-600">
              {whyFixed}
            </p>
          ) : (
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
          )}
          {member.active && (
            <Button
              variant="secondary"
              disabled={reset.isPending}
              onClick={() =>
                reset.mutate(member.id, {
                  onError: fail,
                  onSuccess: (created) => {
                    if (created.mailId) toast.success(`Password link e-mailed to ${member.email}`);
                  },
                })
              }
            >
              Reset password
            </Button>
          )}
        </div>
        {reset.data && !reset.data.mailId && openReset?.id === reset.data.id && (
          <OneTimeLink link={reset.data} label={`Password link for ${member.name}`} />
        )}
        {openReset && (
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <span>Password link open until {format.dateTime(openReset.expiresAt)}</span>
            <RevokeLinkButton linkId={openReset.id} what={`the password link for ${member.name}`} />
          </div>
        )}
      </td>
    </tr>
  );
}

/** The company's settings a Manager changes: the language and region its dates and numbers are written in. */
function CompanySection() {
  const session = useSession();
  const format = useFormat();
  const change = useChangeCompanySettings();
  const locale = session.data?.company.locale ?? DEFAULT_LOCALE;
  const sample = new Date();
  return (
    <Panel title="Company">
      <div className="flex flex-wrap items-end gap-3">
        <FormField
          label="Dates and numbers"
          hint={`Shown to every member as ${format.dateTime(sample)} and ${format.number(1234.5)}.`}
          className="min-w-60 flex-1 sm:max-w-md"
        >
          <SelectInput
            value={locale}
            disabled={change.isPending}
            onValue={(value) => {
              const next = value as CompanyLocale;
              change.mutate(
                { locale: next },
                {
                  onSuccess: () =>
                    toast.success(`Dates and numbers are now written for ${LOCALE_LABELS[next]}`),
                  onError: (error) => toast.error(errorMessages(error).join(' ')),
                },
              );
            }}
          >
            <LabelledOptions values={COMPANY_LOCALES} labels={LOCALE_LABELS} />
          </SelectInput>
        </FormField>
      </div>
    </Panel>
  );
}

/** /team: the company's members with their role, last sign-in and status; invitations and password links. */
export default function TeamPage() {
  useDocumentTitle('Team');
  const session = useSession();
  const team = useTeam();
  const format = useFormat();
  return (
    <Page title="Team">
      <div className="space-y-6">
        <CompanySection />
        <InviteForm openInvites={team.isSuccess ? team.data.invites : undefined} />
        <MailList />
        {/* the heading stays while the list loads or cannot (offline: not kept on this device) */}
        <Panel title="Members">
          <QueryView query={team} loading="Loading the team...">
            {(data) => (
              <>
                {/* a table from a tablet's width up (scrolling sideways in its box when it must), a card per
                    member on a phone */}
                <DataTable
                  caption="Members and their roles"
                  head={['Member', 'Role', 'Last sign-in', 'Status', 'Actions']}
                >
                  {data.members.map((member) => (
                    <MemberRow
                      key={member.id}
                      member={member}
                      isMe={member.id === session.data?.id}
                      onlyManager={
                        member.role === 'manager' && member.active && activeManagers(data.members) === 1
                      }
                      openReset={data.resets.find((r) => r.memberId === member.id)}
                    />
                  ))}
                </DataTable>
                {data.invites.length > 0 && (
                  <div className="pt-2">
                    <h3 id="invites-title" className="text-sm font-semibold text-slate-700">
                      Open invitations
                    </h3>
                    <ul aria-labelledby="invites-title" className="mt-2 space-y-2 text-sm text-slate-600">
                      {data.invites.map((invite) => (
                        <li
                          key={invite.id}
                          data-testid="open-invite"
                          className="flex flex-wrap items-center justify-between gap-2"
                        >
                          <span className="min-w-0 flex-1 basis-60">
                            {/* an address of up to 254 characters breaks anywhere; the whole of it is the title too */}
                            <span className="break-all" title={invite.email}>
                              {invite.email}
                            </span>{' '}
                            as {ROLE_LABELS[invite.role]}, until {format.dateTime(invite.expiresAt)}
                          </span>
                          <RevokeLinkButton linkId={invite.id} what={`the invitation for ${invite.email}`} />
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
              </>
            )}
          </QueryView>
        </Panel>
        {/* other programs' access (issue 31): API tokens and webhooks */}
        <ApiTokensSection />
        <WebhooksSection />
      </div>
    </Page>
  );
}

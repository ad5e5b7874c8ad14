import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { COMPANY_LOCALES, type CompanyLocale, DEFAULT_LOCALE, LOCALE_LABELS } from '@domain/rules/locale';
import { ROLES, ROLE_LABELS, type Role } from '@domain/rules/roles';
import type { MemberDto, MemberLinkDto, PendingResetDto } from '@domain/schemas/team.schema';
import { useSession } from '@/api/session';
import { useChangeCompanySettings, useChangeMember, useInvite, useResetLink, useTeam } from '@/api/team';
import { Button } from '@/components/ui/button';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { OneTimeLink } from '../components/one-time-link';
import { RevokeLinkButton } from '../components/revoke-link-button';
import { ApiTokensSection } from '../components/api-tokens-section';
import { WebhooksSection } from '../components/webhooks-section';
import { MailList } from '../components/mail-list';
import { LabelledOptions } from '@/components/ui/named-options';
import { useFormat } from '@/lib/format';
import { Panel } from '@/components/ui/panel';

// a card's cell names its column on a phone, where the column headings are not shown
const cellLabel = 'mb-1 block text-xs font-semibold tracking-wide text-slate-500 uppercase md:sr-only';

const activeManagers = (members: MemberDto[]) =>
  members.filter((m) => m.role === 'manager' && m.active).length;

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
          // with e-mail set up the link goes out by mail (the E-mail list shows its state); otherwise it is copied
          if (created.mailId) toast.success(`Invitation e-mailed to ${email.trim()}`);
          else setLink(created);
          setEmail('');
        },
      },
    );
  }

  return (
    <Panel title="Invite a member">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Invite a member"
        className="flex flex-wrap items-end gap-3"
      >
        <FormField label="Email" className="min-w-60 flex-1">
          <TextInput type="email" name="email" autoComplete="off" value={email} onValue={setEmail} />
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
      {link && (openLinks === undefined || openLinks.has(link.id)) && (
        <OneTimeLink link={link} label="Invitation link" />
      )}
    </Panel>
  );
}

function MemberCard({
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
    <li
      className="grid gap-x-4 gap-y-3 border-t border-slate-100 px-5 py-4 md:grid-cols-[minmax(12rem,2fr)_minmax(9rem,1fr)_minmax(9rem,1fr)_6rem_minmax(14rem,2fr)] md:items-start"
      data-testid="member-row"
      aria-label={member.name}
    >
      <div className="min-w-0">
        <p className="font-semibold break-words text-slate-800">
          {member.name}
          {isMe && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
        </p>
        <p className="text-xs break-all text-slate-500">{member.email}</p>
      </div>
      <div>
        <span className={cellLabel}>Role</span>
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
      </div>
      <p className="text-sm text-slate-600">
        <span className={cellLabel}>Last sign-in</span>
        {member.lastSignInAt ? format.dateTime(member.lastSignInAt) : 'Never'}
      </p>
      <p className="text-sm">
        <span className={cellLabel}>Status</span>
        <span className={member.active ? 'text-green-700' : 'text-slate-600'}>
          {member.active ? 'Active' : 'Deactivated'}
        </span>
      </p>
      <div className="space-y-2">
        <span className={cellLabel}>Actions</span>
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
      </div>
    </li>
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
        <InviteForm
          openLinks={team.isSuccess ? new Set(team.data.invites.map((invite) => invite.id)) : undefined}
        />
        <MailList />
        {team.isPending && <Spinner label="Loading the team..." />}
        {team.isError && <QueryFailed query={team} />}
        {team.isSuccess && (
          <section
            aria-labelledby="members-title"
            className="rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            <h2 id="members-title" className="px-5 pt-5 text-lg font-bold text-primary">
              Members
            </h2>
            {/* a list of cards: one column on a phone, the columns of a table from a tablet's width up */}
            <div
              aria-hidden
              className="mt-3 hidden gap-x-4 px-5 pb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase md:grid md:grid-cols-[minmax(12rem,2fr)_minmax(9rem,1fr)_minmax(9rem,1fr)_6rem_minmax(14rem,2fr)]"
            >
              <span>Member</span>
              <span>Role</span>
              <span>Last sign-in</span>
              <span>Status</span>
              <span>Actions</span>
            </div>
            <ul aria-labelledby="members-title" className="mt-3 md:mt-0">
              {team.data.members.map((member) => (
                <MemberCard
                  key={member.id}
                  member={member}
                  isMe={member.id === session.data?.id}
                  onlyManager={
                    member.role === 'manager' && member.active && activeManagers(team.data.members) === 1
                  }
                  openReset={team.data.resets.find((r) => r.memberId === member.id)}
                />
              ))}
            </ul>
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
                        {format.dateTime(invite.expiresAt)}
                      </span>
                      <RevokeLinkButton linkId={invite.id} what={`the invitation for ${invite.email}`} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </section>
        )}
        {/* other programs' access (issue 31): API tokens and webhooks */}
        <ApiTokensSection />
        <WebhooksSection />
      </div>
    </Page>
  );
}

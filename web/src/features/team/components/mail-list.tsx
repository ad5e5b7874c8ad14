import type { MailKind } from '@domain/schemas/team.schema';
import { useCompanyMails } from '@/api/customers';
import { QueryFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { useFormat } from '@/lib/format';
import { Panel } from '@/components/ui/panel';

const STATUS_STYLE: Record<string, string> = {
  queued: 'bg-amber-100 text-amber-800',
  sending: 'bg-blue-100 text-blue-800',
  sent: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};
const STATUS_LABEL: Record<string, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};
const KIND_LABEL: Record<MailKind, string> = {
  invite: 'Invitation',
  reset: 'Password link',
  'portal-link': 'Portal link',
  request: 'Request update',
  invoice: 'Invoice',
  'sit-notice': 'Storage notice',
};

/** The company's latest mails and each one's state: queued, sending, sent, or failed with the last error. */
export function MailList() {
  const mails = useCompanyMails();
  const format = useFormat();
  // whether mail is set up is not known yet: the section keeps its heading while it loads or cannot (offline)
  if (!mails.isSuccess)
    return (
      <Panel title="E-mail">
        {mails.isPending ? <Spinner label="Loading mails..." /> : <QueryFailed query={mails} />}
      </Panel>
    );
  if (!mails.data.enabled) return null;
  return (
    <Panel title="E-mail" id="mails-title" className="">
      {mails.data.mails.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No mail sent yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-labelledby="mails-title">
          {mails.data.mails.map((mail) => (
            <li
              key={mail.id}
              className="flex flex-wrap items-start gap-x-3 gap-y-1 py-2 text-sm"
              data-testid="mail-row"
            >
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[mail.status]}`}>
                {STATUS_LABEL[mail.status]}
              </span>
              <div className="min-w-0 flex-1">
                <p className="text-slate-800">
                  {KIND_LABEL[mail.kind]} to{' '}
                  <span className="break-all" title={mail.to}>
                    {mail.to}
                  </span>
                </p>
                <p className="text-xs text-slate-500">
                  {mail.sentAt
                    ? `Sent ${format.dateTime(mail.sentAt)}`
                    : `Queued ${format.dateTime(mail.createdAt)}`}
                  {` · ${mail.attempts} ${mail.attempts === 1 ? 'attempt' : 'attempts'}`}
                  {mail.status === 'queued' &&
                    mail.attempts > 0 &&
                    mail.nextAttemptAt &&
                    ` · next try ${format.dateTime(mail.nextAttemptAt)}`}
                </p>
                {mail.lastError && mail.status !== 'sent' && (
                  <p className="text-xs text-red-700">Last error: {mail.lastError}</p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

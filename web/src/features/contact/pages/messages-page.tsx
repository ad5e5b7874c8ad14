import { Inbox, Mail } from 'lucide-react';
import { useContactMessages } from '@/api/contact';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';

/** Messages sent through the landing page's contact form, newest first. */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  const messages = useContactMessages();
  const format = useFormat();

  return (
    <Page title="Messages">
      {messages.isPending ? (
        <Spinner label="Loading messages..." />
      ) : messages.error instanceof ApiError && messages.error.status === 404 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-500">
          Contact messages are read by the operator of this installation.
        </p>
      ) : messages.isError ? (
        <ErrorList messages={errorMessages(messages.error)} />
      ) : messages.data.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-500">
          <Inbox className="mx-auto mb-3 h-10 w-10 text-slate-400" aria-hidden />
          <p>No messages yet.</p>
        </div>
      ) : (
        <ul className="space-y-4">
          {messages.data.map((m) => (
            <li key={m.id} className="rounded-xl bg-white p-5 shadow-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-semibold text-primary">
                  {m.name}
                  {m.company && <span className="font-normal text-slate-500"> · {m.company}</span>}
                </h2>
                <time dateTime={m.created_at} className="text-sm text-slate-500">
                  {format.dateTime(m.created_at)}
                </time>
              </div>
              <a
                href={`mailto:${m.email}`}
                className="mt-1 inline-flex items-center gap-1 text-sm text-accent hover:underline"
              >
                <Mail className="h-4 w-4" aria-hidden /> {m.email}
              </a>
              <p className="mt-3 whitespace-pre-wrap text-slate-700">{m.message}</p>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

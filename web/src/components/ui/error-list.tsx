import { errorMessages } from '../../lib/api-client';
import { Button } from './button';

export function ErrorList({
  messages,
  className = 'rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700',
}: {
  messages: string[];
  className?: string;
}) {
  if (messages.length === 0) return null;
  // the alert wraps the list: a role on the <ul> itself would hide its list semantics and orphan the items
  return (
    <div role="alert" className={className}>
      <ul className="space-y-1">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}

/** What a screen shows when its data could not be loaded: the reasons and a way to try again. */
export function LoadFailed({
  messages,
  onRetry,
  className = '',
}: {
  messages: string[];
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div className={`space-y-3 ${className}`}>
      <ErrorList messages={messages} />
      <Button variant="secondary" className="no-print" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** LoadFailed for a query that failed: its error's reasons, and a retry that fetches it again. */
export function QueryFailed({ query }: { query: { error: unknown; refetch: () => Promise<unknown> } }) {
  return <LoadFailed messages={errorMessages(query.error)} onRetry={() => void query.refetch()} />;
}

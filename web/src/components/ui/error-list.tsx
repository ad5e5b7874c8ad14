import { errorMessages } from '../../lib/api-client';
import { Button } from './button';

export function ErrorList({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul
      role="alert"
      className="space-y-1 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700"
    >
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
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

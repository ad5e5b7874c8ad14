import type { ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/copy-text';

/**
 * A value as it is shown once (a token's secret, a webhook's signing secret, a one-time link): the value, a copy
 * button and the note that says what to do with it.
 */
export function SecretOnce({
  label,
  secret,
  note,
  copyLabel = `Copy ${label.toLowerCase()}`,
  copied = 'Copied',
  failed = 'It could not be copied; select it and copy it by hand.',
  testId = 'secret-once',
}: {
  label: string;
  secret: string;
  note: ReactNode;
  copyLabel?: string;
  copied?: string;
  failed?: string;
  testId?: string;
}) {
  return (
    <div className="space-y-2 rounded-lg border border-accent/30 bg-accent/5 p-3" role="status">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={secret}
          aria-label={label}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <Button
          variant="secondary"
          onClick={() => void copyText(secret, { copied, failed })}
          aria-label={copyLabel}
        >
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-xs text-slate-600">{note}</p>
    </div>
  );
}

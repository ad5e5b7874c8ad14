import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';

/** A secret as it is shown once: the value, a copy button and the warning that it is not shown again. */
export function SecretOnce({ label, secret, note }: { label: string; secret: string; note: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success('Copied');
    } catch {
      toast.error('It could not be copied; select it and copy it by hand.');
    }
  }
  return (
    <div className="space-y-2 rounded-lg border border-accent/30 bg-accent/5 p-3" role="status">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={secret}
          aria-label={label}
          data-testid="secret-once"
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <Button variant="secondary" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-xs text-slate-600">{note}</p>
    </div>
  );
}

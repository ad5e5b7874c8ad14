import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import type { MemberLinkDto } from '@domain/schemas/team.schema';
import { linkAddress } from '@/api/team';
import { Button } from '@/components/ui/button';
import { useFormat } from '@/lib/format';

/** A one-time link as it is shown once: the address, a copy button and when it stops working. */
export function OneTimeLink({ link, label }: { link: MemberLinkDto; label: string }) {
  const format = useFormat();
  const address = linkAddress(link);
  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      toast.success('Link copied');
    } catch {
      toast.error('The link could not be copied; select it and copy it by hand.');
    }
  }
  return (
    <div className="space-y-2 rounded-lg border border-accent/30 bg-accent/5 p-3" role="status">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={address}
          aria-label={label}
          data-testid="one-time-link"
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <Button variant="secondary" onClick={() => void copy()} aria-label="Copy link">
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-xs text-slate-600">
        Works once, until {format.dateTime(link.expiresAt)}. Only this page shows it: send it to the member
        yourself.
      </p>
    </div>
  );
}

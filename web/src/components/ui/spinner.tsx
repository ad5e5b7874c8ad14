import { useOnline } from '../../lib/connection-status';

/**
 * What shows while something loads. Offline, what is still loading was not kept on this device and cannot come until
 * the connection is back (queries wait for it), so it says that instead of spinning on.
 */
export function Spinner({ label = 'Loading...' }: { label?: string }) {
  const online = useOnline();
  if (!online)
    return (
      <div role="status" className="px-6 py-16 text-center text-sm text-slate-700">
        <p className="font-medium">Not kept on this device for offline use.</p>
        <p className="mt-1">It loads as soon as the connection is back.</p>
      </div>
    );
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex items-center justify-center gap-3 py-16 text-slate-600"
    >
      <span
        className="h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-accent"
        aria-hidden
      />
      <span className="text-sm">{label}</span>
    </div>
  );
}

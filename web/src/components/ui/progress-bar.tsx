import { useFormat } from '../../lib/format';

/** A determinate progress bar (0-100) with its label and percent in words, for screen readers and eyes alike. */
export function ProgressBar({ label, percent }: { label: string; percent: number }) {
  const format = useFormat();
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  // written the company's way: '42%' (en-US), '42 %' (de-DE)
  const text = format.percent(value);
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-3 text-sm text-slate-700">
        <span className="truncate">{label}</span>
        <span className="tabular-nums">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

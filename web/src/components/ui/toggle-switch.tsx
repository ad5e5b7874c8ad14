import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';

/**
 * A labelled on/off switch; the label is clickable and the switch works with keyboard and touch. On a touch
 * screen the switch's tap area grows to 44 px around the same small track.
 */
export function ToggleSwitch({
  label,
  checked,
  onCheckedChange,
  disabled = false,
  hint,
}: {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    // a lone label sits level with the switch (44 px tall on a touch screen); a label with a hint starts at its top
    <div className={`flex justify-between gap-3 ${hint ? 'items-start' : 'items-center'}`}>
      <div className="min-w-0">
        <label
          htmlFor={id}
          className={`text-sm font-medium ${disabled ? 'text-slate-500' : 'text-slate-700'}`}
        >
          {label}
        </label>
        {hint && (
          <p id={hintId} className="text-xs text-slate-600">
            {hint}
          </p>
        )}
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        className="group inline-flex shrink-0 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50 pointer-coarse:h-11 pointer-coarse:min-w-14"
      >
        <span className="relative inline-flex h-6 w-11 items-center rounded-full bg-slate-300 transition-colors group-data-[state=checked]:bg-accent">
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </span>
      </Switch.Root>
    </div>
  );
}

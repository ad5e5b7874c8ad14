import {
  type ChangeEvent,
  cloneElement,
  type ComponentProps,
  type InputHTMLAttributes,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useId,
} from 'react';

/** The text input look of the app's forms, disabled and invalid states included; 16 px text on phones, where a
 * smaller one makes the browser zoom in on focus. 44 px tall on touch screens, so a finger finds it. */
export const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-800 sm:text-sm pointer-coarse:min-h-11 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-danger';

/** The file input's look (attachments, spreadsheets), its button 44 px tall on touch screens. */
export const fileInputClass =
  'block w-full text-sm text-slate-600 pointer-coarse:min-h-11 pointer-coarse:file:min-h-11 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-200';

/**
 * A number that may have a fraction and is never negative (feet, a weight): the app's input look, the decimal keypad
 * on phones, any step. Other attributes (value, onChange, placeholder, the ids FormField gives) pass through.
 */
export function DecimalInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return <input className={inputClass} type="number" min={0} step="any" inputMode="decimal" {...props} />;
}

/** Extra classes go after the app's look, so a caller may add to it (a monospace font, a taller box). */
function withLook(className: string | undefined) {
  return className ? `${inputClass} ${className}` : inputClass;
}

type TextInputProps = Omit<ComponentProps<'input'>, 'value'> & {
  value?: string;
  /** The text after each change; `onChange` stays for a caller that needs the event. */
  onValue?: (value: string) => void;
};

/**
 * A text input (or date, email, password…) with the app's look. Every native attribute passes through, the ids and
 * aria props FormField gives and a ref included; `onValue` hands over the text instead of the event.
 */
export function TextInput({ className, onValue, onChange, ...props }: TextInputProps) {
  return (
    <input
      {...props}
      className={withLook(className)}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        onChange?.(event);
        onValue?.(event.target.value);
      }}
    />
  );
}

type TextAreaProps = Omit<ComponentProps<'textarea'>, 'value'> & {
  value?: string;
  onValue?: (value: string) => void;
};

/** A textarea with the app's look; like TextInput, attributes pass through and `onValue` hands over the text. */
export function TextArea({ className, onValue, onChange, ...props }: TextAreaProps) {
  return (
    <textarea
      {...props}
      className={withLook(className)}
      onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
        onChange?.(event);
        onValue?.(event.target.value);
      }}
    />
  );
}

type SelectInputProps<T extends string> = Omit<ComponentProps<'select'>, 'value' | 'onChange'> & {
  value: T;
  /** The chosen option's value; the options are the caller's, so it answers for their values being a T. */
  onValue: (value: T) => void;
};

/** A native select with the app's look that hands over the chosen value, typed as the caller's union of options. */
export function SelectInput<T extends string>({ className, onValue, ...props }: SelectInputProps<T>) {
  return (
    <select
      {...props}
      className={withLook(className)}
      onChange={(event) => onValue(event.target.value as T)}
    />
  );
}

interface ControlProps {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

/**
 * A labelled input with a hint or its error under it. The label names the input and nothing else: the hint and
 * the error are linked to it with aria-describedby, so a screen reader reads them after the name.
 */
export function FormField({
  label,
  hint,
  error,
  className = '',
  children,
}: {
  label: ReactNode;
  hint?: string;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  const base = useId();
  const hintId = `${base}-hint`;
  const errorId = `${base}-error`;
  const control = isValidElement<ControlProps>(children) ? (children as ReactElement<ControlProps>) : null;
  const controlId = control?.props.id ?? `${base}-control`;
  const describedBy =
    [control?.props['aria-describedby'], hint && hintId, error && errorId].filter(Boolean).join(' ') ||
    undefined;

  return (
    <div className={`block ${className}`}>
      {control ? (
        <>
          <label htmlFor={controlId} className="mb-1 block text-sm font-medium text-slate-700">
            {label}
          </label>
          {cloneElement(control, {
            id: controlId,
            'aria-describedby': describedBy,
            ...(error && control.props['aria-invalid'] === undefined ? { 'aria-invalid': true } : {}),
          })}
        </>
      ) : (
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">{label}</span>
          {children}
        </label>
      )}
      {hint && (
        <p id={hintId} className="mt-1 block text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 block text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

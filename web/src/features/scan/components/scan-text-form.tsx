import { useState } from 'react';
import { buttonClass } from '@/components/ui/button';
import { TextInput } from '@/components/ui/form-field';

/** A label's text typed (or scanned into the box), sent with Enter or the button; the box empties on sending. */
export function ScanTextForm({
  id,
  placeholder,
  button,
  disabled,
  onText,
}: {
  id: string;
  placeholder: string;
  button: string;
  disabled?: boolean;
  onText: (text: string) => void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <form
      className="flex gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onText(typed);
        setTyped('');
      }}
    >
      <label htmlFor={id} className="sr-only">
        Label text
      </label>
      <TextInput
        id={id}
        className="h-12 flex-1 text-lg"
        placeholder={placeholder}
        value={typed}
        autoComplete="off"
        onValue={setTyped}
      />
      <button type="submit" className={buttonClass('primary', 'min-h-12')} disabled={disabled}>
        {button}
      </button>
    </form>
  );
}

import { FormField, TextInput } from './form-field';

/** A labelled password input (the join page's new password and its repeat, the profile's current and new one). */
export function PasswordField({
  label,
  hint,
  name,
  autoComplete,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  name: string;
  autoComplete: 'new-password' | 'current-password';
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={label} hint={hint}>
      <TextInput type="password" name={name} autoComplete={autoComplete} value={value} onValue={onChange} />
    </FormField>
  );
}

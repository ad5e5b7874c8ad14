import { type Dispatch, type ReactNode, type SetStateAction, useState } from 'react';
import { VAULT_TYPES, type VaultType } from '@domain/rules/capacity';
import { emptyCustomerName, vaultNumberDisabled } from '@domain/rules/placeholders';
import { type NumberedVault, useVaultsNumbered } from '../api/search';
import { useFormIssues } from '../lib/use-form-issues';
import { useSettled } from '../lib/use-settled';
import { FormField, SelectInput, TextArea, TextInput } from './ui/form-field';
import { SegmentedToggle } from './ui/segmented-toggle';
import { LabelledOptions } from './ui/named-options';

const kindLabels: Record<VaultType, string> = {
  vault: 'Vault',
  liftvan: 'Liftvan',
  t2: 'T2',
  couchbox: 'Couchbox',
};

/** What the vault inputs hold; in Empty mode some are shown differently from what was typed (see `shownVault`). */
export interface VaultFieldValues {
  kind: VaultType;
  customer: string;
  vaultNumber: string;
  order: string;
  note: string;
}

/**
 * The values as the form shows and sends them: a placeholder (Empty mode) carries its kind's name as the customer,
 * no order, and no number for kinds that have none; what was typed for a real vault stays in the state meanwhile.
 */
export function shownVault(values: VaultFieldValues, empty: boolean) {
  const numberDisabled = empty && vaultNumberDisabled(values.kind);
  return {
    customer_name: empty ? emptyCustomerName(values.kind) : values.customer,
    number: numberDisabled ? '' : values.vaultNumber,
    numberDisabled,
    order_name: empty ? '' : values.order,
    note: values.note,
  };
}

export type VaultMode = 'regular' | 'empty';

/** Where a vault in store stands, as a sentence says it: 'in Main A1, position 2' or 'on the stage'. */
export function numberedVaultPlace({ place }: NumberedVault): string {
  return place.at === 'field'
    ? `in ${place.warehouse.name} ${place.fieldName}, position ${place.position}`
    : 'on the stage';
}

/** The note under a vault number that other vaults carry too: whose and where, and what it means for a scan. */
export function sharedNumberNote(others: NumberedVault[]): string | undefined {
  const [first] = others;
  if (!first) return undefined;
  const whose =
    others.length === 1
      ? `${first.customerName}'s vault ${numberedVaultPlace(first)} has`
      : `${others.length} other vaults have`;
  return `${whose} this number too. It can be saved, but a scan of it will ask which vault is meant.`;
}

/** The kind a real vault takes in a field: a couchbox in a couchbox field, else a vault. */
export function fieldVaultKind(couchboxField: boolean): VaultType {
  return couchboxField ? 'couchbox' : 'vault';
}

/**
 * The state of a vault form, shared by the add dialog and the edit page: the mode, what was typed, the schema's
 * issues, and `fields`, the props `VaultFields` takes from them (the form adds its own names, rows and extras).
 */
export function useVaultForm(start: {
  mode: VaultMode;
  couchboxField: boolean;
  values?: Partial<VaultFieldValues>;
}) {
  const [mode, setMode] = useState<VaultMode>(start.mode);
  const [values, setValues] = useState<VaultFieldValues>(() => ({
    kind: fieldVaultKind(start.couchboxField),
    customer: '',
    vaultNumber: '',
    order: '',
    note: '',
    ...start.values,
  }));
  const issues = useFormIssues();
  const empty = mode === 'empty';
  return {
    mode,
    setMode,
    values,
    setValues,
    empty,
    shown: shownVault(values, empty),
    issues,
    fields: { values, setValues, empty, couchboxField: start.couchboxField, issues: issues.byField },
  };
}

/** Regular (a customer's vault) or Empty (a placeholder: empty vault, liftvan, T2 or couchbox). */
export function VaultModeToggle({
  mode,
  onChange,
  labels,
}: {
  mode: VaultMode;
  onChange: (mode: VaultMode) => void;
  labels: Record<VaultMode, string>;
}) {
  return (
    <SegmentedToggle<VaultMode>
      label="Mode"
      options={[
        { value: 'regular', label: labels.regular },
        { value: 'empty', label: labels.empty },
      ]}
      value={mode}
      onChange={onChange}
    />
  );
}

/**
 * The inputs of a vault, shared by the add-vault dialog and the edit-vault page: customer, the placeholder's kind
 * (Empty mode only), vault number, order, then `beforeNote` (the add dialog's attachment) and the note.
 */
export function VaultFields({
  values,
  setValues,
  empty,
  couchboxField,
  issues,
  numberName,
  noteRows,
  notePlaceholder,
  beforeNote,
  vaultId,
}: {
  values: VaultFieldValues;
  setValues: Dispatch<SetStateAction<VaultFieldValues>>;
  empty: boolean;
  couchboxField: boolean;
  /** the schema's first message per input, keyed by the body's names */
  issues: Record<string, string>;
  /** the body's name of the vault number: `vault_id` when adding, `name` when editing */
  numberName: 'vault_id' | 'name';
  noteRows: number;
  notePlaceholder?: string;
  beforeNote?: ReactNode;
  /** the vault being edited, which does not share a number with itself */
  vaultId?: number;
}) {
  const shown = shownVault(values, empty);
  const others = useVaultsNumbered(useSettled(shown.number, 400), vaultId);
  const onChange = (change: Partial<VaultFieldValues>) => setValues((v) => ({ ...v, ...change }));
  const kinds = VAULT_TYPES.filter((k) => k !== 'couchbox' || couchboxField);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField label="Customer Name" error={issues.customer_name} className="sm:col-span-2">
        <TextInput
          name="customer_name"
          value={shown.customer_name}
          onValue={(customer) => onChange({ customer: customer.toUpperCase() })}
          disabled={empty}
          required={!empty}
          autoComplete="off"
          className="uppercase"
        />
      </FormField>
      {empty && (
        <FormField label="Type">
          <SelectInput name="type" value={values.kind} onValue={(kind) => onChange({ kind })}>
            <LabelledOptions values={kinds} labels={kindLabels} />
          </SelectInput>
        </FormField>
      )}
      <FormField label="Vault Number" error={issues[numberName]} hint={sharedNumberNote(others)}>
        <TextInput
          name={numberName}
          value={shown.number}
          onValue={(vaultNumber) => onChange({ vaultNumber })}
          disabled={shown.numberDisabled}
          autoComplete="off"
        />
      </FormField>
      <FormField label="Order Number" error={issues.order_name}>
        <TextInput
          name="order_name"
          value={shown.order_name}
          onValue={(order) => onChange({ order })}
          disabled={empty}
          required={!empty}
          autoComplete="off"
        />
      </FormField>
      {beforeNote}
      <FormField label="Note" error={issues.note} className="sm:col-span-2">
        <TextArea
          name="note"
          rows={noteRows}
          value={values.note}
          placeholder={notePlaceholder}
          onValue={(note) => onChange({ note })}
        />
      </FormField>
    </div>
  );
}

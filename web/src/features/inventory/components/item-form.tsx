import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { InventoryDto } from '@domain/schemas/inventory.schema';
import { InventoryItemSchema } from '@domain/schemas/inventory.schema';
import { useAddInventoryItem } from '@/api/inventory';
import { Button } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { errorMessages } from '@/lib/api-client';

/** The next sticker number after the highest plain number on the list. */
function nextSticker(inventory: InventoryDto): string {
  const numbers = inventory.items.map((i) => Number(i.sticker)).filter((n) => Number.isInteger(n) && n > 0);
  return String(numbers.length ? Math.max(...numbers) + 1 : 1);
}

/** A new item: sticker number, description, room, condition codes as buttons to tap, high value. */
export function ItemForm({ inventory }: { inventory: InventoryDto }) {
  const add = useAddInventoryItem(inventory.vault.id);
  const [sticker, setSticker] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [room, setRoom] = useState('');
  const [codes, setCodes] = useState<string[]>([]);
  const [highValue, setHighValue] = useState(false);
  const [issues, setIssues] = useState<string[]>([]);
  const shownSticker = sticker ?? nextSticker(inventory);

  const toggle = (code: string) =>
    setCodes((now) => (now.includes(code) ? now.filter((c) => c !== code) : [...now, code]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { sticker: shownSticker, description, room, codes, high_value: highValue };
    const checked = InventoryItemSchema.safeParse(input);
    if (!checked.success) return setIssues(checked.error.issues.map((i) => i.message));
    if (inventory.items.some((i) => i.sticker === checked.data.sticker))
      return setIssues([`Sticker ${checked.data.sticker} is already on this unit's inventory.`]);
    setIssues([]);
    add.mutate(input, {
      onSuccess: () => {
        toast.success(`Item ${checked.data.sticker} added`);
        setSticker(null);
        setDescription('');
        setCodes([]);
        setHighValue(false);
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4"
      aria-label="Add an item"
    >
      <h2 className="text-lg font-semibold text-slate-800">Add an item</h2>
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_12rem]">
        <FormField label="Sticker no.">
          <TextInput value={shownSticker} inputMode="text" maxLength={20} onValue={setSticker} />
        </FormField>
        <FormField label="Description">
          <TextInput
            value={description}
            maxLength={200}
            placeholder="e.g. Oak dresser"
            onValue={setDescription}
          />
        </FormField>
        <FormField label="Room">
          <TextInput value={room} maxLength={60} placeholder="e.g. Bedroom" onValue={setRoom} />
        </FormField>
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-700">Condition</legend>
        <div className="flex flex-wrap gap-2">
          {inventory.codes.map((c) => {
            const on = codes.includes(c.code);
            return (
              <button
                key={c.code}
                type="button"
                aria-pressed={on}
                title={c.meaning}
                onClick={() => toggle(c.code)}
                className={`min-h-11 rounded-lg border px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-accent ${
                  on
                    ? 'border-amber-500 bg-amber-100 text-amber-900'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
                }`}
              >
                {c.code} <span className="font-normal">{c.meaning}</span>
              </button>
            );
          })}
        </div>
      </fieldset>
      <div className="max-w-xs">
        <ToggleSwitch label="High value" checked={highValue} onCheckedChange={setHighValue} />
      </div>
      {(issues.length > 0 || add.isError) && (
        <ErrorList messages={issues.length > 0 ? issues : errorMessages(add.error)} />
      )}
      <Button type="submit" disabled={add.isPending}>
        <Plus className="h-4 w-4" aria-hidden /> {add.isPending ? 'Adding...' : 'Add item'}
      </Button>
    </form>
  );
}

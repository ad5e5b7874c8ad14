/** A select's options, one per item: the item's id as the value, its name as the text. */
export function NamedOptions({ items }: { items: readonly { id: number; name: string }[] }) {
  return (
    <>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}

/** A select's options for a fixed list of values, each shown with its label. */
export function LabelledOptions<T extends string>({
  values,
  labels,
}: {
  values: readonly T[];
  labels: Record<T, string>;
}) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {labels[value]}
        </option>
      ))}
    </>
  );
}

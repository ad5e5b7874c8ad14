import { type FormEvent, useState } from 'react';
import { ClipboardList, CloudOff, TabletSmartphone } from 'lucide-react';
import { toast } from 'sonner';
import { Link } from 'react-router';
import { VAULT_TYPES, type VaultType } from '@domain/rules/capacity';
import { LABEL_FORMAT_NAMES, LABEL_FORMATS, type LabelFormat } from '@domain/rules/label-sheets';
import type { ReceivingField } from '@domain/rules/receiving';
import type { ReceivedDto, ShipmentProposalDto } from '@domain/schemas/receiving.schema';
import type { WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { downloadVaultLabels } from '@/api/labels';
import { shipmentLabel, useReceiveShipment, useShipmentProposal } from '@/api/receiving';
import { useSession } from '@/api/session';
import { Button, buttonClass } from '@/components/ui/button';
import { cell, DataTable } from '@/components/ui/data-table';
import { paths } from '@/config/paths';
import { ErrorList } from '@/components/ui/error-list';
import { SelectInput, TextArea, TextInput, inputClass } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { ConnectionError, errorMessages } from '@/lib/api-client';
import { formatTime, useCompanyLocale } from '@/lib/format';
import { lastData } from '@/lib/offline-data';
import { floorOutbox, useFloorOutbox } from '@/lib/outbox/floor-outbox';
import { type SlotHold, takenByQueue } from '@/lib/outbox/outbox';
import { useDocumentTitle } from '@/lib/use-document-title';
import { type ShipmentLine, shipmentLines } from '../shipment-lines';
import { LabelledOptions } from '@/components/ui/named-options';
import { ChooseFieldDialog } from '../components/choose-field-dialog';
import { keptReceivingFields, proposeOnTablet, shipmentHolds } from '../tablet-proposal';

export const NO_KEPT_WAREHOUSES =
  'No connection to the server, and this device has not kept the fields of any warehouse, so it cannot propose slots. Open the warehouses once while online, or try again when the connection is back. The shipment is still in the form.';

/** A proposal made on this tablet (no answer from the server): what it was made from. */
interface TabletProposal {
  /** the oldest kept warehouse it read (ms) */
  asOf: number;
  /** the company's warehouses this tablet never opened, so not proposed */
  left: string[];
  fields: ReceivingField[];
}

const TYPE_LABEL: Record<VaultType, string> = {
  vault: 'Vaults',
  liftvan: 'Liftvans',
  t2: 'T2',
  couchbox: 'Couchboxes',
};
const emptyTypes = () =>
  Object.fromEntries(VAULT_TYPES.map((t) => [t, { count: 0, numbers: '' }])) as Record<
    VaultType,
    { count: number; numbers: string }
  >;

/** Receive shipment: the customer, the order and the vaults per type; the server proposes slots, the user may change them. */
export default function ReceivePage() {
  useDocumentTitle('Receive shipment');
  const propose = useShipmentProposal();
  const receive = useReceiveShipment();
  const [customer, setCustomer] = useState('');
  const [order, setOrder] = useState('');
  const [perType, setPerType] = useState(emptyTypes);
  const [lines, setLines] = useState<ShipmentLine[]>([]);
  const [proposal, setProposal] = useState<ShipmentProposalDto | null>(null);
  const [chosen, setChosen] = useState<Record<number, number>>({});
  /** the line whose field is being chosen on the grid picture */
  const [choosing, setChoosing] = useState<number | null>(null);
  const [received, setReceived] = useState<ReceivedDto | null>(null);
  const [onTablet, setOnTablet] = useState<TabletProposal | null>(null);
  const [tabletProblem, setTabletProblem] = useState<string | null>(null);
  const session = useSession();
  const locale = useCompanyLocale();
  // shipments stored on this tablet that have not reached the server yet (issue 30)
  const waiting = useFloorOutbox().filter((intent) => intent.kind === 'receiving');

  function show(answer: ShipmentProposalDto, made: TabletProposal | null) {
    setProposal(answer);
    setOnTablet(made);
    setChosen(Object.fromEntries(answer.proposals.map((p) => [p.index, p.field_id])));
  }

  /** No answer from the server: the same rule on the warehouses this tablet kept, with what waits on it counted in. */
  async function proposeHere(next: ShipmentLine[]) {
    const companyId = session.data?.companyId;
    const kept = companyId === undefined ? [] : await lastData.kept('warehouse', companyId);
    const warehouses = kept.filter((k) => k.queryKey.length === 2);
    if (warehouses.length === 0) {
      setTabletProblem(NO_KEPT_WAREHOUSES);
      return;
    }
    const details = warehouses.map((k) => k.data as WarehouseDto);
    const list = companyId === undefined ? [] : await lastData.kept('warehouses', companyId);
    const all = (list[0]?.data as WarehouseSummaryDto[] | undefined) ?? [];
    const intents = floorOutbox.list();
    const fields = keptReceivingFields(details, customer, (id) => takenByQueue(intents, id));
    show(proposeOnTablet(fields, next), {
      asOf: Math.min(...warehouses.map((k) => k.updatedAt)),
      left: all.filter((w) => !details.some((d) => d.id === w.id)).map((w) => w.name),
      fields,
    });
  }

  function askProposal(event: FormEvent) {
    event.preventDefault();
    const next = shipmentLines(perType);
    setLines(next);
    setReceived(null);
    setTabletProblem(null);
    propose.mutate(
      { customer_name: customer, order_name: order, vaults: next },
      {
        onSuccess: (answer) => show(answer, null),
        onError: (error) => {
          if (error instanceof ConnectionError) void proposeHere(next);
        },
      },
    );
  }

  function store() {
    if (!proposal) return;
    const holds: SlotHold[] = onTablet
      ? shipmentHolds(onTablet.fields, lines, chosen, customer)
      : proposal.proposals
          .filter((p) => chosen[p.index] === p.field_id)
          .map((p) => ({
            fieldId: p.field_id,
            position: p.position,
            label: lines[p.index]?.name
              ? `vault ${lines[p.index]!.name} received`
              : `unit of ${customer.trim().toUpperCase()} received`,
          }));
    receive.mutate(
      {
        input: {
          customer_name: customer,
          order_name: order,
          vaults: lines.map((line, i) => ({ ...line, field_id: chosen[i]! })),
        },
        holds,
      },
      {
        onSuccess: (sent) => {
          setProposal(null);
          setOnTablet(null);
          if (sent.queued) {
            toast.info(`The ${shipmentLabel(sent.intent.body)} is stored on this device: not synced yet`);
            return;
          }
          setReceived(sent.answer);
          toast.success(`${sent.answer.vaults.length} vaults stored`);
        },
      },
    );
  }

  const complete = lines.length > 0 && lines.every((_, i) => chosen[i] !== undefined);

  return (
    <Page title="Receive shipment">
      <form
        onSubmit={askProposal}
        aria-label="Shipment"
        className="mb-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            Customer Name
            <TextInput value={customer} onValue={setCustomer} required />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            Order Number
            <TextInput value={order} onValue={setOrder} required />
          </label>
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {VAULT_TYPES.map((type) => (
            <fieldset key={type} className="space-y-2 rounded-lg border border-slate-200 p-3">
              <legend className="px-1 text-sm font-semibold text-slate-700">{TYPE_LABEL[type]}</legend>
              <label className="flex flex-col gap-1 text-xs text-slate-600">
                How many
                <input
                  type="number"
                  min={0}
                  max={200}
                  className={inputClass}
                  value={perType[type].count}
                  onChange={(e) =>
                    setPerType((p) => ({ ...p, [type]: { ...p[type], count: Number(e.target.value) || 0 } }))
                  }
                />
              </label>
              <label className="flex flex-col gap-1 text-xs text-slate-600">
                Numbers (typed or pasted)
                <TextArea
                  rows={3}
                  value={perType[type].numbers}
                  onValue={(numbers) => setPerType((p) => ({ ...p, [type]: { ...p[type], numbers } }))}
                />
              </label>
            </fieldset>
          ))}
        </div>
        <Button type="submit" disabled={propose.isPending}>
          Propose slots
        </Button>
        {propose.isError && !(propose.error instanceof ConnectionError) && (
          <ErrorList messages={errorMessages(propose.error)} />
        )}
        {tabletProblem && <ErrorList messages={[tabletProblem]} />}
      </form>

      {waiting.length > 0 && (
        <section
          aria-label="Shipments not synced"
          className="mb-6 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
        >
          <ul className="space-y-1">
            {waiting.map((intent) => (
              <li
                key={intent.key}
                className="flex items-start gap-2 font-semibold"
                data-testid="shipment-not-synced"
              >
                <CloudOff className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
                <span>
                  Not synced: {shipmentLabel(intent.body)}
                  {intent.state === 'attention' && (
                    <span className="font-normal text-red-800">
                      {' '}
                      (refused: {intent.messages?.join(' ') ?? 'see the changes not synced'})
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-2">
            Labels can be printed once {waiting.length === 1 ? 'it has' : 'they have'} reached the server; the
            server then places each unit in its field and may take another free slot there.
          </p>
        </section>
      )}

      {proposal && (
        <section aria-label="Proposed slots" className="space-y-3">
          {onTablet && (
            <div
              className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
              data-testid="proposed-on-tablet"
            >
              <TabletSmartphone className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
              <div>
                <p className="font-semibold">Proposed on this device, not synced</p>
                <p>
                  No connection to the server: these slots come from the warehouses as this device saw them,
                  as of {formatTime(onTablet.asOf, locale)}. The server checks every field again when the
                  shipment reaches it.
                </p>
                {onTablet.left.length > 0 && (
                  <p className="mt-1">
                    Not opened on this device, so not proposed: {onTablet.left.join(', ')}.
                  </p>
                )}
              </div>
            </div>
          )}
          {proposal.unplaced.length > 0 && (
            <ErrorList
              messages={[
                `No field has room for ${proposal.unplaced.length} of the vaults. Choose a field for them.`,
              ]}
            />
          )}
          <DataTable caption="Proposed fields" head={['Vault number', 'Type', 'Field']} narrow>
            {lines.map((line, i) => (
              <tr key={i} data-testid="proposed-slot">
                <td className={cell}>{line.name ?? '-'}</td>
                <td className={cell}>{line.type}</td>
                <td className={cell}>
                  <FieldChoiceButton
                    vaultLabel={line.name ?? `vault ${i + 1}`}
                    choice={proposal.fields.find((f) => f.field_id === chosen[i])}
                    onClick={() => setChoosing(i)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
          {choosing !== null && lines[choosing] && (
            <ChooseFieldDialog
              vaultLabel={lines[choosing].name ?? `vault ${choosing + 1}`}
              choices={proposal.fields
                .filter((f) => (lines[choosing]!.type === 'couchbox') === f.couchbox)
                // the slots the shipment's other vaults take there are not free for this one
                .map((f) => ({ ...f, free: f.free - takenByOthers(chosen, choosing, f.field_id) }))}
              chosenId={chosen[choosing]}
              onChoose={(fieldId) => setChosen((c) => ({ ...c, [choosing]: fieldId }))}
              onClose={() => setChoosing(null)}
            />
          )}
          <Button onClick={store} disabled={!complete || receive.isPending}>
            Store {lines.length} vaults
          </Button>
          {receive.isError && <ErrorList messages={errorMessages(receive.error)} />}
        </section>
      )}

      {received && (
        <section aria-label="Received" className="rounded-2xl border border-emerald-200 bg-emerald-50 p-4">
          <p className="mb-2 font-semibold text-emerald-800">{received.vaults.length} vaults stored</p>
          <ul className="text-sm text-emerald-900">
            {received.vaults.map((v) => (
              <li
                key={v.id}
                data-testid="received-vault"
                className="flex flex-wrap items-center gap-2 py-0.5"
              >
                {v.name ?? 'No number'}: {v.warehouse_name} {v.field_name}, position {v.position}
                <Link to={paths.inventory(v.id)} className={buttonClass('secondary', '!px-3')}>
                  <ClipboardList className="h-4 w-4" aria-hidden /> Inventory
                </Link>
              </li>
            ))}
          </ul>
          <PrintLabels vaultIds={received.vaults.map((v) => v.id)} />
        </section>
      )}
    </Page>
  );
}

function takenByOthers(chosen: Record<number, number>, line: number, fieldId: number): number {
  return Object.entries(chosen).filter(([other, id]) => Number(other) !== line && id === fieldId).length;
}

/** A vault's field in the proposal; a tap opens the grid picture to choose another. */
function FieldChoiceButton({
  vaultLabel,
  choice,
  onClick,
}: {
  vaultLabel: string;
  choice: ShipmentProposalDto['fields'][number] | undefined;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex min-h-11 w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-left text-sm hover:border-accent focus-visible:outline-3 focus-visible:outline-accent"
    >
      <span className={choice ? 'text-slate-900' : 'text-slate-500'}>
        <span className="sr-only">Field for {vaultLabel}: </span>
        {choice ? `${choice.warehouse_name} ${choice.field_name}` : 'Choose a field'}
      </span>
      <span className="text-xs font-semibold text-accent">Change</span>
    </button>
  );
}

/** The end of receiving: the new vaults' labels, in the format the company's printer takes. */
function PrintLabels({ vaultIds }: { vaultIds: number[] }) {
  const [format, setFormat] = useState<LabelFormat>('thermal-4x6');
  const [printing, setPrinting] = useState(false);
  const [failure, setFailure] = useState<string[]>([]);
  async function print() {
    setPrinting(true);
    setFailure([]);
    try {
      await downloadVaultLabels(format, vaultIds);
    } catch (error) {
      setFailure(errorMessages(error));
    } finally {
      setPrinting(false);
    }
  }
  return (
    <div className="mt-3 flex flex-wrap items-end gap-2">
      <label className="text-sm text-emerald-900">
        Label format
        <SelectInput value={format} onValue={setFormat} className="mt-1 block">
          <LabelledOptions values={LABEL_FORMATS} labels={LABEL_FORMAT_NAMES} />
        </SelectInput>
      </label>
      <Button onClick={() => void print()} disabled={printing}>
        {printing ? 'Preparing labels...' : 'Print their labels'}
      </Button>
      {failure.length > 0 && <ErrorList messages={failure} />}
    </div>
  );
}

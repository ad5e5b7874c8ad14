import { Ban, FileDown, ReceiptText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { decimalToMinor } from '@domain/billing/money';
import type { InvoiceDto } from '@domain/schemas/billing.schema';
import { useCreditInvoice, useVoidInvoice } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { FormButtons } from '@/components/ui/form-buttons';
import { FormField, TextArea } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useDownload } from '@/lib/use-download';
import { useMoney } from '@/lib/use-money';
import { AmountField } from './billing-form';

/** How an invoice or a credit note is named in a sentence and a file. */
const invoiceTitle = (i: InvoiceDto) =>
  i.kind === 'credit' ? `Credit note ${i.number}` : `Invoice ${i.number}`;

/** The correction asked for in the list, answered by the dialog; null while none is. */
export type InvoiceAction = { invoice: InvoiceDto; what: 'credit' | 'void' } | null;

/**
 * An invoice's actions in the invoices list: its PDF; a credit note while something is open on it; a void while
 * nothing was paid or credited (the server checks both again and says why it refuses).
 */
export function InvoiceActions({
  invoice,
  onAsk,
}: {
  invoice: InvoiceDto;
  onAsk: (asked: InvoiceAction) => void;
}) {
  const { busy, download } = useDownload();
  const title = invoiceTitle(invoice);
  const isInvoice = invoice.kind !== 'credit' && invoice.status !== 'void' && invoice.status !== 'draft';
  const fileName = `${title.toLowerCase().replace(/ /g, '-')}.pdf`;
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="secondary"
        disabled={busy}
        onClick={() => void download(`/api/invoices/${invoice.id}/invoice.pdf`, fileName)}
        aria-label={`PDF of ${title}`}
      >
        <FileDown className="h-4 w-4" aria-hidden /> PDF
      </Button>
      {isInvoice && invoice.open > 0 && (
        <Button
          variant="secondary"
          onClick={() => onAsk({ invoice, what: 'credit' })}
          aria-label={`Credit note for ${title}`}
        >
          <ReceiptText className="h-4 w-4" aria-hidden /> Credit
        </Button>
      )}
      {isInvoice && invoice.status === 'issued' && invoice.open === invoice.total && (
        <Button
          variant="secondary"
          onClick={() => onAsk({ invoice, what: 'void' })}
          aria-label={`Void ${title}`}
        >
          <Ban className="h-4 w-4" aria-hidden /> Void
        </Button>
      )}
    </div>
  );
}

/** The question before a credit note or a void: the reason (and for a credit, how much), kept with the invoice. */
export function InvoiceActionDialog({ asked, onClose }: { asked: InvoiceAction; onClose: () => void }) {
  const credit = useCreditInvoice();
  const voiding = useVoidInvoice();
  const money = useMoney();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string[]>([]);
  const pending = credit.isPending || voiding.isPending;
  const invoice = asked?.invoice;
  const close = () => {
    if (pending) return;
    setAmount('');
    setReason('');
    setProblem([]);
    credit.reset();
    voiding.reset();
    onClose();
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!asked || !invoice) return;
    if (!reason.trim()) return setProblem(['Give the reason.']);
    const done = (said: string) => {
      toast.success(said);
      close();
    };
    if (asked.what === 'void') {
      setProblem([]);
      voiding.mutate(
        { id: invoice.id, reason },
        { onSuccess: () => done(`${invoiceTitle(invoice)} voided`) },
      );
      return;
    }
    const minor = amount.trim() === '' ? undefined : decimalToMinor(amount, invoice.currency);
    if (minor === null || (minor !== undefined && minor <= 0))
      return setProblem([
        `Type the amount in ${invoice.currency}, e.g. 20.00, or leave it empty for all that is open.`,
      ]);
    setProblem([]);
    credit.mutate(
      { id: invoice.id, amount: minor, reason },
      {
        onSuccess: (note) => done(`Credit note ${note.number} issued: ${money(-note.total, note.currency)}`),
      },
    );
  }
  const isCredit = asked?.what === 'credit';
  return (
    <Dialog
      open={asked !== null}
      onOpenChange={(open) => !open && close()}
      title={invoice ? (isCredit ? `Credit ${invoiceTitle(invoice)}` : `Void ${invoiceTitle(invoice)}`) : ''}
      description={
        invoice &&
        (isCredit
          ? `A credit note takes an amount off the invoice; ${money(invoice.open, invoice.currency)} is open on it.`
          : 'A voided invoice counts for nothing and keeps its number; use it for an invoice issued by mistake.')
      }
    >
      <form onSubmit={submit} className="space-y-4" aria-label={isCredit ? 'Credit note' : 'Void'}>
        {isCredit && invoice && (
          <AmountField
            currency={invoice.currency}
            value={amount}
            onChange={setAmount}
            label={`Amount (${invoice.currency}), empty for all that is open`}
          />
        )}
        <FormField label="Reason">
          <TextArea value={reason} onValue={setReason} maxLength={500} rows={3} />
        </FormField>
        <ErrorList
          messages={[
            ...problem,
            ...(credit.isError ? errorMessages(credit.error) : []),
            ...(voiding.isError ? errorMessages(voiding.error) : []),
          ]}
        />
        <FormButtons
          submit={isCredit ? 'Issue credit note' : 'Void invoice'}
          pending={pending}
          onCancel={close}
        />
      </form>
    </Dialog>
  );
}

import { Printer, QrCode } from 'lucide-react';
import { useEffect, useState } from 'react';
import { LABEL_FORMAT_NAMES, LABEL_FORMATS, type LabelFormat } from '@domain/rules/label-sheets';
import { fetchLabelPdf } from '../api/labels';
import { errorMessages } from '../lib/api-client';
import { readRemembered, remember } from '../lib/remembered';
import { saveFile } from '../lib/save-file';
import { Button, buttonClass } from './ui/button';
import { Dialog } from './ui/dialog';
import { ErrorList } from './ui/error-list';
import { FormField, SelectInput } from './ui/form-field';
import { LabelledOptions } from './ui/named-options';
import { Spinner } from './ui/spinner';

// the same remembered choice as Print Studio's Labels dialog: a printer takes one format
const FORMAT_KEY = 'label-format';
const rememberedFormat = (): LabelFormat => {
  const stored = readRemembered(FORMAT_KEY);
  return (LABEL_FORMATS as readonly string[]).includes(stored) ? (stored as LabelFormat) : 'thermal-4x6';
};

type Subject = { vaultId: number } | { warehouseId: number; field: string };

/**
 * One vault's or one field's label, previewed as the PDF the server draws, then printed (the browser's PDF viewer
 * opens in a new tab) or saved. Used from the field detail and the edit-vault page.
 */
export function LabelPrintDialog({
  open,
  onOpenChange,
  title,
  fileName,
  subject,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  fileName: string;
  subject: Subject;
}) {
  const [format, setFormat] = useState<LabelFormat>(rememberedFormat);
  const key = `${format}|${'vaultId' in subject ? `v${subject.vaultId}` : `f${subject.warehouseId}-${subject.field}`}`;
  // what was drawn, and for which label and format: anything else is still being drawn
  const [drawn, setDrawn] = useState<{ key: string; pdf?: { blob: Blob; url: string }; errors?: string[] }>({
    key: '',
  });
  const pdf = drawn.key === key ? drawn.pdf : undefined;
  const errors = drawn.key === key ? (drawn.errors ?? []) : [];

  useEffect(() => {
    if (!open) return;
    let gone = false;
    let url: string | null = null;
    fetchLabelPdf(format, subject)
      .then((blob) => {
        if (gone) return;
        url = URL.createObjectURL(blob);
        setDrawn({ key, pdf: { blob, url } });
      })
      .catch((error: unknown) => {
        if (!gone) setDrawn({ key, errors: errorMessages(error) });
      });
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
    // the subject is named by its key; a new object for the same label fetches nothing new
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, format, key]);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description="The label as it will print. Print opens it in your browser's PDF viewer."
      wide
    >
      <div className="space-y-4">
        <FormField label="Label format">
          <SelectInput
            value={format}
            onValue={(next) => {
              remember(FORMAT_KEY, next);
              setFormat(next);
            }}
          >
            <LabelledOptions values={LABEL_FORMATS} labels={LABEL_FORMAT_NAMES} />
          </SelectInput>
        </FormField>
        <div className="flex h-80 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-100 sm:h-96">
          {errors.length > 0 ? (
            <div className="p-4">
              <ErrorList messages={errors} />
            </div>
          ) : pdf ? (
            <iframe title={`Preview: ${title}`} src={pdf.url} className="h-full w-full bg-white" />
          ) : (
            <Spinner label="Drawing the label..." />
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button
            variant="secondary"
            disabled={!pdf}
            aria-describedby={pdf ? undefined : 'label-wait'}
            onClick={() => pdf && saveFile(pdf.blob, fileName)}
          >
            Save PDF
          </Button>
          {pdf ? (
            <a href={pdf.url} target="_blank" rel="noopener" className={buttonClass('primary')}>
              <Printer className="h-4 w-4" aria-hidden /> Print
            </a>
          ) : (
            <Button disabled aria-describedby="label-wait">
              <Printer className="h-4 w-4" aria-hidden /> Print
            </Button>
          )}
        </div>
        {!pdf && errors.length === 0 && (
          <p id="label-wait" className="text-right text-xs text-slate-600">
            Print and Save work once the preview is drawn.
          </p>
        )}
      </div>
    </Dialog>
  );
}

/** The small 'Print label' button of the field detail and the edit-vault page. */
export function PrintLabelButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={`Print label of ${what}`}
      className="inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-accent hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:min-h-11"
    >
      <QrCode className="h-4 w-4" aria-hidden /> Print label
    </button>
  );
}

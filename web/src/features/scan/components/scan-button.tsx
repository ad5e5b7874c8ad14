import { ScanLine } from 'lucide-react';
import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { deliverClaimedScan } from '../scan-claim';
import { useKeyboardScanner } from '../use-keyboard-scanner';
import { ScanPanel } from './scan-panel';

/**
 * The top bar's Scan button: opens the scanning screen. A keyboard scanner's read outside a text box opens it too, with that read (on a screen that takes scans itself, such as a warehouse check, the read goes there).
 */
export function ScanButton({ warehouseId }: { warehouseId?: number }) {
  const [open, setOpen] = useState(false);
  const [incoming, setIncoming] = useState<{ text: string; seq: number } | null>(null);
  const seq = useRef(0);
  useKeyboardScanner((text) => {
    // a warehouse check takes the reads itself, unless this dialog is open over it
    if (!open && deliverClaimedScan(text)) return;
    seq.current += 1;
    setIncoming({ text, seq: seq.current });
    setOpen(true);
  });

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setIncoming(null);
          setOpen(true);
        }}
        className="flex items-center gap-2 rounded-lg px-3 py-2 font-semibold hover:bg-white/10 focus-visible:outline-3 focus-visible:outline-white pointer-coarse:min-h-11"
      >
        <ScanLine className="h-6 w-6" aria-hidden /> Scan
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setIncoming(null);
        }}
        title="Scan"
        description="Point the camera at a label, or scan it with a hand scanner."
      >
        {open && <ScanPanel warehouseId={warehouseId} incoming={incoming} onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

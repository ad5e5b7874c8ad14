import { Check, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { severalVaults } from '@domain/rules/scan-text';
import type { ScanAnswer, ScannedFieldDto, ScannedVaultDto } from '@domain/schemas/scan.schema';
import { lookUpScan, lookUpVault, useScanMove } from '@/api/scan';
import { useVaultsNumbered } from '@/api/search';
import { numberedVaultPlace } from '@/components/vault-fields';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { readFeedback } from '../read-feedback';
import { createReadGate } from '../read-gate';
import { CameraReader, CameraToggle } from './camera-reader';
import { ScanTextForm } from './scan-text-form';
import { VaultWhere } from './vault-where';

interface LastScan {
  at: number;
  text: string;
  said: string;
  ok: boolean;
}

const vaultTitle = (v: ScannedVaultDto) => v.name ?? v.customerName;

/**
 * The scanning screen: camera or typed/scanned text. A vault shows where it stands; a vault and then a field
 * moves it there after one confirmation; a field alone opens it on its warehouse page.
 */
export function ScanPanel({
  warehouseId,
  incoming,
  onClose,
}: {
  /** the warehouse page the scan was started on: "B4" means its field */
  warehouseId?: number;
  /** a scan that arrived from a keyboard scanner before or while the panel is open */
  incoming: { text: string; seq: number } | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [camera, setCamera] = useState(true);
  const [vault, setVault] = useState<ScannedVaultDto | null>(null);
  const [waitingForField, setWaitingForField] = useState(false);
  const [confirmMove, setConfirmMove] = useState<{ vault: ScannedVaultDto; field: ScannedFieldDto } | null>(
    null,
  );
  const [errors, setErrors] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  // a number several vaults in store carry: they are listed to choose from
  const [sameNumber, setSameNumber] = useState<string | null>(null);
  const [last, setLast] = useState<LastScan[]>([]);
  const move = useScanMove();
  // one read reaches the panel by two ways (the camera, a scan handed over while it opens): it counts once
  const readGate = useRef(createReadGate());

  const note = (text: string, said: string, ok: boolean) =>
    setLast((list) => [{ at: Date.now(), text, said, ok }, ...list].slice(0, 5));

  const look = async (text: string, lookUp: () => Promise<ScanAnswer>) => {
    setErrors([]);
    setNotice(null);
    setSameNumber(null);
    try {
      const answer = await lookUp();
      readFeedback(true);
      if (answer.kind === 'vault') {
        note(text, `Vault ${vaultTitle(answer.vault)}`, true);
        setVault(answer.vault);
        setConfirmMove(null);
        // a vault with others on it cannot move: no field scan is awaited for it
        setWaitingForField(answer.vault.above === 0);
        return;
      }
      const field = answer.field;
      note(text, `Field ${field.name} in ${field.warehouseName}`, true);
      if (vault && waitingForField) {
        setConfirmMove({ vault, field });
        return;
      }
      onClose();
      void navigate(`${paths.warehouse(field.warehouseName)}?field=${encodeURIComponent(field.name)}`);
    } catch (error) {
      readFeedback(false);
      note(text, errorMessages(error)[0] ?? 'Not read', false);
      setErrors(errorMessages(error));
      if (errorMessages(error)[0] === severalVaults(text)) setSameNumber(text);
    }
  };
  const handle = async (raw: string) => {
    const text = raw.trim();
    if (!text || !readGate.current(text, Date.now())) return;
    await look(text, () => lookUpScan(text, warehouseId));
  };
  const handleRef = useRef(handle);
  useEffect(() => {
    handleRef.current = handle;
  });

  useEffect(() => {
    if (incoming) void handleRef.current(incoming.text);
  }, [incoming]);

  const doMove = () => {
    if (!confirmMove) return;
    const { vault: moving, field } = confirmMove;
    move.mutate(
      { vaultId: moving.id, fieldId: field.id },
      {
        onSuccess: (moved) => {
          setNotice(
            `Vault ${vaultTitle(moved)} is now in field ${moved.fieldName}, position ${moved.position}.`,
          );
          setVault(moved);
          setWaitingForField(false);
          setConfirmMove(null);
        },
        onError: (error) => {
          setErrors(errorMessages(error));
          setConfirmMove(null);
        },
      },
    );
  };

  return (
    <div className="space-y-4">
      <div className="flex gap-2">
        <CameraToggle on={camera} onToggle={() => setCamera((on) => !on)} className="min-h-12 flex-1" />
      </div>
      {camera && <CameraReader onRead={(text) => void handleRef.current(text)} />}
      <ScanTextForm
        id="scan-text"
        placeholder="Vault number or field, e.g. B4"
        button="Find"
        onText={(text) => void handle(text)}
      />
      <ErrorList messages={errors} />
      {sameNumber && (
        <SameNumber text={sameNumber} onPick={(id) => void look(sameNumber, () => lookUpVault(id))} />
      )}
      {notice && (
        <p role="status" className="rounded-lg bg-green-50 p-3 text-base font-semibold text-green-800">
          {notice}
        </p>
      )}
      {confirmMove ? (
        <section
          aria-label="Confirm the move"
          className="rounded-xl border-2 border-accent bg-blue-50 p-4 text-lg"
        >
          <p className="font-semibold">
            Move vault {vaultTitle(confirmMove.vault)} into field {confirmMove.field.name} of{' '}
            {confirmMove.field.warehouseName}?
          </p>
          <div className="mt-3 flex gap-2">
            <button
              type="button"
              className={buttonClass('primary', 'min-h-14 flex-1 text-base')}
              disabled={move.isPending}
              onClick={doMove}
            >
              <Check className="h-5 w-5" aria-hidden /> Move here
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'min-h-14 flex-1 text-base')}
              onClick={() => setConfirmMove(null)}
            >
              <X className="h-5 w-5" aria-hidden /> Cancel
            </button>
          </div>
        </section>
      ) : (
        vault && (
          <>
            <VaultWhere
              vault={vault}
              onMove={() => setWaitingForField(true)}
              onStaged={() => {
                setNotice(`Vault ${vaultTitle(vault)} is on the stage.`);
                setVault({
                  ...vault,
                  warehouseId: null,
                  warehouseName: null,
                  fieldId: null,
                  fieldName: null,
                  position: null,
                  above: 0,
                });
              }}
            />
            {waitingForField && (
              <p className="text-center text-base text-slate-600">
                Scan a field label to move this vault there.
              </p>
            )}
          </>
        )
      )}
      {last.length > 0 && (
        <section aria-labelledby="last-scans">
          <h3 id="last-scans" className="text-sm font-semibold text-slate-700">
            Last scans
          </h3>
          <ul className="mt-1 divide-y divide-slate-100 text-sm">
            {last.map((s) => (
              <li key={`${s.at}-${s.text}`} className={s.ok ? 'py-1 text-slate-700' : 'py-1 text-danger'}>
                {s.said}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The vaults in store that carry a scanned number, each a button that opens it as if its own label were scanned. */
function SameNumber({ text, onPick }: { text: string; onPick: (vaultId: number) => void }) {
  const vaults = useVaultsNumbered(text);
  if (vaults.length === 0) return null;
  return (
    <ul aria-label={`Vaults numbered ${text}`} className="space-y-2">
      {vaults.map((v) => (
        <li key={v.id}>
          <button
            type="button"
            className={buttonClass('secondary', 'min-h-12 w-full justify-start text-left')}
            onClick={() => onPick(v.id)}
          >
            <span>
              <span className="font-semibold">{v.name}</span> · {v.customerName}, {numberedVaultPlace(v)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

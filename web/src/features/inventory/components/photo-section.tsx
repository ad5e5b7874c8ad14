import { Camera, ImageOff } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import type { InventoryDto, InventoryPhotoDto } from '@domain/schemas/inventory.schema';
import { attachmentUrl, useAddInventoryPhoto, useRemoveInventoryPhoto } from '@/api/inventory';
import { Button } from '@/components/ui/button';
import { ConfirmRemoval, RemoveButton, useRemoval } from './confirm-removal';
import { ErrorList } from '@/components/ui/error-list';
import { SelectInput } from '@/components/ui/form-field';
import { ProgressBar } from '@/components/ui/progress-bar';
import { errorMessages } from '@/lib/api-client';
import { resizePhoto } from '../resize-photo';
import { Panel } from '@/components/ui/panel';

/** Photos from the tablet's camera, shrunk in the browser before upload, of one item or of the whole load. */
export function PhotoSection({ inventory, canWrite }: { inventory: InventoryDto; canWrite: boolean }) {
  const vaultId = inventory.vault.id;
  const [progress, setProgress] = useState<number | null>(null);
  const add = useAddInventoryPhoto(vaultId, setProgress);
  const removal = useRemoval<InventoryPhotoDto>(useRemoveInventoryPhoto(vaultId));
  const [itemId, setItemId] = useState<string>('');
  const [problem, setProblem] = useState<string[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const selectId = useId();
  const stickers = new Map(inventory.items.map((i) => [i.id, i.sticker]));

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setProblem([]);
    let photo: Blob;
    try {
      photo = await resizePhoto(file);
    } catch {
      return setProblem(['This file could not be read as a photo. Please take the photo again.']);
    }
    if (photo.size > MAX_UPLOAD_BYTES) return setProblem([FILE_TOO_LARGE]);
    setProgress(0);
    add.mutate(
      { photo, itemId: itemId ? Number(itemId) : null },
      {
        onSuccess: () => toast.success('Photo added'),
        onError: (error) => setProblem(errorMessages(error)),
        onSettled: () => {
          setProgress(null);
          if (input.current) input.current.value = '';
        },
      },
    );
  };

  return (
    <Panel title="Photos">
      {canWrite && (
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-48">
            <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
              Photo of
            </label>
            <SelectInput id={selectId} value={itemId} onValue={setItemId}>
              <option value="">The whole load</option>
              {inventory.items.map((item) => (
                <option key={item.id} value={item.id}>
                  Item {item.sticker}: {item.description}
                </option>
              ))}
            </SelectInput>
          </div>
          <input
            ref={input}
            type="file"
            accept="image/*"
            capture="environment"
            className="sr-only"
            aria-label="Photo from the camera"
            data-testid="photo-input"
            onChange={(e) => void upload(e.target.files?.[0])}
          />
          <Button onClick={() => input.current?.click()} disabled={add.isPending}>
            <Camera className="h-4 w-4" aria-hidden /> {add.isPending ? 'Uploading...' : 'Take photo'}
          </Button>
        </div>
      )}
      {progress !== null && <ProgressBar percent={progress} label="Uploading the photo" />}
      {problem.length > 0 && <ErrorList messages={problem} />}
      {inventory.photos.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <ImageOff className="h-4 w-4" aria-hidden /> No photos yet.
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {inventory.photos.map((photo) => (
            <li
              key={photo.id}
              className="relative overflow-hidden rounded-lg border border-slate-200"
              data-testid="inventory-photo"
            >
              <img
                src={attachmentUrl(photo.id)}
                alt={photo.item_id ? `Item ${stickers.get(photo.item_id) ?? ''}` : 'The whole load'}
                className="aspect-[4/3] w-full bg-slate-100 object-cover"
                loading="lazy"
              />
              <div className="flex items-center justify-between gap-1 px-2 py-1 text-sm text-slate-700">
                <span>{photo.item_id ? `Item ${stickers.get(photo.item_id) ?? ''}` : 'Whole load'}</span>
                {canWrite && <RemoveButton label="Remove photo" onClick={() => removal.ask(photo)} />}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmRemoval
        of={removal}
        title="Remove this photo?"
        message="The photo is removed from the inventory for good."
        confirmLabel="Remove photo"
        done={() => 'Photo removed'}
      />
    </Panel>
  );
}

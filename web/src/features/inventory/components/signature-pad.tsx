import { Eraser, PenLine } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/form-field';

/**
 * The customer's signature drawn with a finger, pen or mouse (pointer events), with their name; Save hands the
 * drawing on as a PNG. The canvas keeps its pixels at the screen's density, so the line stays sharp on a tablet.
 */
export function SignaturePad({
  label,
  pending,
  onSave,
}: {
  label: string;
  pending: boolean;
  onSave: (drawing: Blob, signer: string) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [signer, setSigner] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = canvas.getBoundingClientRect();
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext('2d');
    if (!context) return;
    context.scale(ratio, ratio);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#0f172a';
  }, []);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const start = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = point(event);
    const context = event.currentTarget.getContext('2d');
    const { x, y } = drawing.current;
    // a tap leaves a dot
    context?.beginPath();
    context?.arc(x, y, 1.2, 0, Math.PI * 2);
    context?.fill();
  };
  const move = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    event.preventDefault();
    const context = event.currentTarget.getContext('2d');
    const next = point(event);
    context?.beginPath();
    context?.moveTo(drawing.current.x, drawing.current.y);
    context?.lineTo(next.x, next.y);
    context?.stroke();
    drawing.current = next;
    if (!drawn) setDrawn(true);
    setProblem(null);
  };
  const end = () => {
    drawing.current = null;
  };

  const clear = () => {
    const canvas = canvasRef.current;
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    setDrawn(false);
  };

  const save = () => {
    if (!signer.trim()) return setProblem("Please write the signer's name.");
    if (!drawn) return setProblem('Please have the customer sign in the box first.');
    canvasRef.current?.toBlob((blob) => {
      if (blob) onSave(blob, signer.trim());
      else setProblem('This browser could not save the drawing. Please try again.');
    }, 'image/png');
  };

  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={nameId} className="mb-1 block text-sm font-medium text-slate-700">
          Signer&apos;s name
        </label>
        <TextInput
          id={nameId}
          value={signer}
          maxLength={100}
          autoComplete="off"
          onValue={(text) => {
            setSigner(text);
            setProblem(null);
          }}
        />
      </div>
      <canvas
        ref={canvasRef}
        aria-label={label}
        role="img"
        data-testid="signature-pad"
        className="h-44 w-full touch-none rounded-lg border-2 border-dashed border-slate-300 bg-white"
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onPointerLeave={end}
      />
      {problem && (
        <p role="alert" className="text-sm text-danger">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={clear} disabled={pending || !drawn}>
          <Eraser className="h-4 w-4" aria-hidden /> Clear
        </Button>
        <Button onClick={save} disabled={pending}>
          <PenLine className="h-4 w-4" aria-hidden /> {pending ? 'Saving...' : 'Save signature'}
        </Button>
      </div>
    </div>
  );
}

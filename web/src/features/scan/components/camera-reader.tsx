import { Camera, CameraOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '@/components/ui/button';

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const SCAN_EVERY_MS = 200;

/** The browser's own barcode reader where it has one (Android, ChromeOS, macOS), else the bundled QR decoder. */
async function makeReader(): Promise<
  (video: HTMLVideoElement, canvas: HTMLCanvasElement) => Promise<string | null>
> {
  const Native = (
    window as unknown as {
      BarcodeDetector?: DetectorClass & { getSupportedFormats?: () => Promise<string[]> };
    }
  ).BarcodeDetector;
  if (Native) {
    const supported = (await Native.getSupportedFormats?.()) ?? [];
    const formats = ['qr_code', 'code_128'].filter((f) => supported.includes(f));
    if (formats.includes('qr_code')) {
      const detector = new Native({ formats });
      return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
    }
  }
  const { default: jsQR } = await import('jsqr');
  return async (video, canvas) => {
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (!width || !height) return null;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return null;
    context.drawImage(video, 0, 0, width, height);
    const image = context.getImageData(0, 0, width, height);
    return jsQR(image.data, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
  };
}

/** The tablet's back camera, read a few times a second; each new text is handed to `onRead`. */
export function CameraReader({ onRead }: { onRead: (text: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const handler = useRef(onRead);
  useEffect(() => {
    handler.current = onRead;
  });

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastText = '';
    let lastAt = 0;
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        });
      } catch {
        if (!stopped)
          setProblem('The camera could not be opened. Allow it in the browser, or type the label.');
        return;
      }
      if (stopped || !video.current) return;
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      const read = await makeReader();
      const tick = async () => {
        if (stopped || !video.current || !canvas.current) return;
        const text = await read(video.current, canvas.current).catch(() => null);
        const now = Date.now();
        // the same label held in front of the camera counts once (again after 3 s)
        if (text && (text !== lastText || now - lastAt > 3000)) {
          lastText = text;
          lastAt = now;
          handler.current(text);
        }
        timer = setTimeout(() => void tick(), SCAN_EVERY_MS);
      };
      void tick();
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  return (
    <div className="overflow-hidden rounded-xl bg-black">
      {problem ? (
        <p className="p-4 text-white">{problem}</p>
      ) : (
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera view"
          className="aspect-[4/3] w-full object-cover"
        />
      )}
      <canvas ref={canvas} hidden />
    </div>
  );
}

/** The button that turns the camera on and off, a large target for one thumb. */
export function CameraToggle({
  on,
  onToggle,
  className,
}: {
  on: boolean;
  onToggle: () => void;
  className: string;
}) {
  return (
    <button type="button" className={buttonClass('secondary', className)} onClick={onToggle}>
      {on ? <CameraOff className="h-5 w-5" aria-hidden /> : <Camera className="h-5 w-5" aria-hidden />}
      {on ? 'Camera off' : 'Camera on'}
    </button>
  );
}

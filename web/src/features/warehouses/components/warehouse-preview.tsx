import { fieldGridFloorProblems, fieldGridSize } from '@domain/rules/field-grid-floor';
import { usePlanScale } from '@/lib/use-plan-scale';

/** The preview's scale where the floor fits; a bigger floor is drawn smaller so it fits the space. */
const PX_PER_FOOT = 2;

function positive(value: string): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** To-scale outline of the floor with the field grid drawn from its top-left corner. */
export function WarehousePreview({
  width,
  length,
  rows,
  cols,
}: {
  width: string;
  length: string;
  rows: string;
  cols: string;
}) {
  const w = positive(width);
  const l = positive(length);
  const r = Math.floor(positive(rows));
  const c = Math.floor(positive(cols));
  const { width: gridW, length: gridL } = fieldGridSize({ rows: r, cols: c });
  // the form refuses such a grid; the preview says why as soon as it is drawn
  const overflow = fieldGridFloorProblems({ rows: r, cols: c }, { width: w, length: l });
  const { ref, scale } = usePlanScale(
    { width: w, length: l },
    Math.round((typeof window === 'undefined' ? 800 : window.innerHeight) * 0.6),
    PX_PER_FOOT,
  );

  return (
    <section aria-label="Preview" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">Preview</h2>
      {w > 0 && l > 0 ? (
        <>
          <p className="mt-1 text-sm text-slate-600" data-testid="preview-size">
            {w} x {l} ft floor{c > 0 && r > 0 ? `, ${c} x ${r} fields` : ''}
            {scale < PX_PER_FOOT ? ' (drawn smaller to fit)' : ''}
          </p>
          <div ref={ref} className="mt-4 max-h-[60vh] overflow-auto">
            <div
              data-testid="warehouse-preview"
              data-scale={scale}
              className="relative overflow-hidden border-2 border-primary bg-surface"
              style={{
                width: w * scale,
                height: l * scale,
                boxSizing: 'content-box',
                backgroundImage:
                  'linear-gradient(to right, rgb(148 163 184 / 0.25) 1px, transparent 1px), linear-gradient(to bottom, rgb(148 163 184 / 0.25) 1px, transparent 1px)',
                backgroundSize: `${10 * scale}px ${10 * scale}px`,
              }}
            >
              {c > 0 && r > 0 && (
                <div
                  data-testid="field-grid-preview"
                  className="absolute top-0 left-0 grid bg-accent/20 outline outline-accent/60"
                  style={{
                    width: gridW * scale,
                    height: gridL * scale,
                    gridTemplateColumns: `repeat(${c}, 1fr)`,
                    gridTemplateRows: `repeat(${r}, 1fr)`,
                  }}
                >
                  {Array.from({ length: Math.min(r * c, 6000) }, (_, i) => (
                    <span key={i} className="border-[0.5px] border-accent/40" />
                  ))}
                </div>
              )}
            </div>
          </div>
          {overflow.map((problem) => (
            <p key={problem.side} className="mt-2 text-sm text-danger">
              {problem.message}
            </p>
          ))}
        </>
      ) : (
        <p className="mt-3 text-sm text-slate-500">Enter a length and a width to see the floor.</p>
      )}
    </section>
  );
}

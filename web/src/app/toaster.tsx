import { lazy, Suspense } from 'react';

// sonner is a tenth of the first screen's JavaScript; the landing and sign-in pages never toast, so it loads with
// the screens that do
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** below the top bar (56 px high, more with the warehouse search's own row), so a toast never covers its buttons */
const BELOW_TOP_BAR = { top: 'calc(var(--top-bar-height, 56px) + 8px)' };

/** Where toasts appear; mounted by the routes whose screens raise them. */
export function LazyToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-center"
        richColors
        closeButton
        offset={BELOW_TOP_BAR}
        mobileOffset={BELOW_TOP_BAR}
      />
    </Suspense>
  );
}

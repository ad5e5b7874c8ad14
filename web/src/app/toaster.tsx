import { lazy, Suspense } from 'react';

// sonner is a tenth of the first screen's JavaScript; the landing and sign-in pages never toast, so it loads with
// the screens that do
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** below the top bar (56 px high), so a toast never covers the menu or the Scan button while it shows */
const BELOW_TOP_BAR = { top: 64 };

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

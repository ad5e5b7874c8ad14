import { lazy, Suspense } from 'react';

// sonner is a tenth of the first screen's JavaScript; the landing and sign-in pages never toast, so it loads with
// the screens that do
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** Where toasts appear; mounted by the routes whose screens raise them. */
export function LazyToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" richColors closeButton />
    </Suspense>
  );
}

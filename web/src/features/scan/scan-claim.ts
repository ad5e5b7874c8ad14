import { useEffect, useRef } from 'react';

let claimant: ((text: string) => void) | null = null;

/**
 * While a screen that takes scans itself is shown (a warehouse check), a hand scanner's reads go to it instead of
 * opening the top bar's Scan dialog. The last screen to claim them has them.
 */
export function useScanClaim(onScan: (text: string) => void) {
  const handler = useRef(onScan);
  useEffect(() => {
    handler.current = onScan;
  });
  useEffect(() => {
    const deliver = (text: string) => handler.current(text);
    claimant = deliver;
    return () => {
      if (claimant === deliver) claimant = null;
    };
  }, []);
}

/** Hands a read to the screen that claimed scans; false when none did. */
export function deliverClaimedScan(text: string): boolean {
  if (!claimant) return false;
  claimant(text);
  return true;
}

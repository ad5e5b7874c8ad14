/**
 * Money is exact (issue 28): every amount is an integer of the currency's minor unit (cents for USD, yen for JPY),
 * never a float. Every division of money goes through `divideRounded`, the one rounding rule of the product:
 * half away from zero, applied once per invoice line (docs/decisions/035-storage-billing.md).
 */

/** An amount in the currency's minor unit; a safe integer. */
export type Minor = number;

export function isMinor(value: unknown): value is Minor {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * `numerator / denominator` rounded half away from zero, computed on big integers so no product of an amount and a
 * count of days or a rate ever loses a digit. The denominator must be positive.
 */
export function divideRounded(numerator: number | bigint, denominator: number | bigint): Minor {
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d <= 0n) throw new RangeError('The denominator must be positive.');
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  if ((abs % d) * 2n >= d) q += 1n;
  const result = Number(negative ? -q : q);
  if (!Number.isSafeInteger(result)) throw new RangeError('The amount is too large.');
  return result;
}

/** The tax of one line: `amount * basisPoints / 10,000`, rounded half away from zero (825 basis points = 8.25 %). */
export function taxOf(amount: Minor, basisPoints: number): Minor {
  return divideRounded(BigInt(amount) * BigInt(basisPoints), 10_000n);
}

/** How many digits the currency's minor unit has (USD 2, JPY 0, BHD 3), from the runtime's currency data. */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Whether `code` is a currency the runtime knows (ISO 4217, three capitals). */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

/**
 * The one place an amount becomes text, for the server's PDFs and exports and for the web app: `formatMoney(123456,
 * 'USD', 'en-US')` is "$1,234.56". The locale comes from the company (the web app reads it in one hook).
 */
export function formatMoney(amount: Minor, currency: string, locale = 'en-US'): string {
  const digits = minorDigits(currency);
  const value = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${currency} ${value.toFixed(digits)}`;
  }
}

/** An amount as plain decimal text for accounting files ("1234.56", "-5.00"), exact from the integer. */
export function minorToDecimal(amount: Minor, currency: string): string {
  const digits = minorDigits(currency);
  const negative = amount < 0;
  const abs = String(Math.abs(amount)).padStart(digits + 1, '0');
  const text = digits === 0 ? abs : `${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
  return negative ? `-${text}` : text;
}

/** Reads "1234.56" (or "1,234.5") as minor units of the currency; null when it is not an amount or has too many decimals. */
export function decimalToMinor(text: string, currency: string): Minor | null {
  const digits = minorDigits(currency);
  const clean = text.trim().replace(/,/g, '');
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(clean);
  if (!match) return null;
  const fraction = match[3] ?? '';
  if (fraction.length > digits) return null;
  const value = Number(match[2]! + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return match[1] ? -value : value;
}

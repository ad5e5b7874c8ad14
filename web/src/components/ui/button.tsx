import type { ComponentProps } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

const variants: Record<Variant, string> = {
  primary: 'bg-accent text-white hover:bg-blue-700 focus-visible:outline-accent',
  secondary: 'bg-white text-slate-700 border border-slate-300 hover:bg-slate-50 focus-visible:outline-accent',
  danger: 'bg-danger text-white hover:bg-red-700 focus-visible:outline-danger',
  ghost: 'text-slate-700 hover:bg-slate-100 focus-visible:outline-accent',
};

export function buttonClass(variant: Variant = 'primary', extra = '') {
  return `inline-flex min-h-10 pointer-coarse:min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${variants[variant]} ${extra}`;
}

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: Variant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}

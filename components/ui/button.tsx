import type { ButtonHTMLAttributes, ReactNode } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function buttonClass(variant: Variant = 'secondary', size?: 'sm', block?: boolean): string {
  return ['btn', variant !== 'secondary' ? `btn-${variant}` : '', size ? `btn-${size}` : '', block ? 'btn-block' : ''].filter(Boolean).join(' ');
}

/**
 * A button that shows progress: while `busy` it is disabled, shows a spinner and `busyLabel`,
 * and tells assistive technology (aria-busy).
 */
export function Button({
  variant = 'secondary',
  size,
  block,
  busy = false,
  busyLabel,
  children,
  type = 'button',
  disabled,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: 'sm'; block?: boolean; busy?: boolean; busyLabel?: ReactNode }) {
  return (
    <button
      type={type}
      className={[buttonClass(variant, size, block), className].filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

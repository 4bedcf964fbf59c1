import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import * as css from './ui.css.ts';

/** A labelled input with its error below; the error is linked for screen readers. */
export function Field({ label, error, className, ...input }: { label: ReactNode; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={css.field}>
      <label htmlFor={id} className={css.label}>
        {label}
      </label>
      <input id={id} className={className ? `${css.input} ${className}` : css.input} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-e` : undefined} {...input} />
      {error ? (
        <span id={`${id}-e`} role="alert" className={css.fieldError}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

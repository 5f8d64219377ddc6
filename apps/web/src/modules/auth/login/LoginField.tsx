import type { ReactNode } from 'react';

/** A labelled field with its error line, announced to screen readers. */
export function LoginField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="login-field">
      <label htmlFor={id}>{label}</label>
      {children}
      <div id={`${id}-error`} className="login-field-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

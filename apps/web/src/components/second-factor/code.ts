/**
 * What a code field keeps of what was typed or pasted: for an authenticator code its digits (at most
 * six, so "123 456" or "123-456" pasted is 123456); for a recovery code letters, digits and the dash.
 */
export function cleanCode(value: string, kind: 'totp' | 'recovery'): string {
  if (kind === 'totp') return value.replace(/\D+/g, '').slice(0, 6);
  return value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '')
    .slice(0, 20);
}

/** Whether a code is complete enough to send. */
export const codeComplete = (value: string, kind: 'totp' | 'recovery') => (kind === 'totp' ? /^\d{6}$/.test(value) : value.length >= 6);

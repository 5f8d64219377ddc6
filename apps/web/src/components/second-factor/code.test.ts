import { describe, expect, it } from 'vitest';
import { cleanCode, codeComplete } from './code';

describe('a code field keeps what a code is made of', () => {
  it('keeps six digits of an authenticator code however it was pasted', () => {
    expect(cleanCode('123 456', 'totp')).toBe('123456');
    expect(cleanCode(' 123-456\n', 'totp')).toBe('123456');
    expect(cleanCode('1234567', 'totp')).toBe('123456');
    expect(codeComplete('12345', 'totp')).toBe(false);
    expect(codeComplete('123456', 'totp')).toBe(true);
  });
  it('keeps a recovery code in lower case with its dash', () => {
    expect(cleanCode(' K3F9Q-X72MB ', 'recovery')).toBe('k3f9q-x72mb');
    expect(codeComplete('k3f9q-x72mb', 'recovery')).toBe(true);
  });
});

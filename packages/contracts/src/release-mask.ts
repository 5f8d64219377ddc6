/** Secrets shorter than this are not masked: masking "1" or "yes" would garble every log and hide nothing. */
export const MIN_SECRET_LENGTH = 4;
export const MASK = '******';

/**
 * What to hide for each secret: the value, its base64 form, and each line of a multi-line value
 * (a line printed alone must not leak). Longest first, so a value is hidden before its parts.
 */
export function maskPatterns(secrets: readonly string[]): string[] {
  const patterns = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    patterns.add(secret);
    patterns.add(Buffer.from(secret).toString('base64'));
    patterns.add(Buffer.from(secret).toString('base64').replace(/=+$/, ''));
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= MIN_SECRET_LENGTH) patterns.add(line);
  }
  return [...patterns].sort((a, b) => b.length - a.length);
}

/** The text with every secret pattern replaced by the mask. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const pattern of maskPatterns(secrets)) masked = masked.split(pattern).join(MASK);
  return masked;
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../errors';

/**
 * Secrets at rest: AES-256-GCM with a key the operator provides. A sealed value is one string,
 * `atrium-secret:v1:{keyId}:{iv}:{ciphertext+tag}` (base64url), so it fits any text column or JSON
 * field. The key id (the first 8 hex digits of a hash of the key) says which key sealed it: with several
 * keys given, the first seals and every one opens, which is how a key is rotated. `context` is bound
 * into the tag (additional data): a value copied to another tenant's row, or another kind of secret,
 * does not open. Used for environment secret variables and cloud-printer vendor keys; reuse it for any
 * later secret a user enters.
 */
export const SEALED_PREFIX = 'atrium-secret:v1:';

export type SecretKey = { id: string; key: Buffer };

export const keyIdOf = (key: Buffer) => createHash('sha256').update('atrium-secret-key:').update(key).digest('hex').slice(0, 8);

/** A 32-byte key from its base64 (or base64url) text; null when it is anything else. */
export function parseKey(text: string): SecretKey | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? { id: keyIdOf(key), key } : null;
}

/** Keys separated by commas or white space, the sealing one first; null naming the first bad one. */
export function parseKeys(text: string): { keys: SecretKey[] } | { bad: number } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const keys: SecretKey[] = [];
  for (const [index, part] of parts.entries()) {
    const key = parseKey(part);
    if (!key) return { bad: index + 1 };
    if (!keys.some((k) => k.id === key.id)) keys.push(key);
  }
  return { keys };
}

/** A new random key in the form SECRETS_KEY takes. */
export const newKeyText = () => randomBytes(32).toString('base64');

export const isSealed = (value: string) => value.startsWith(SEALED_PREFIX);

/** The id of the key that sealed `value`, or null for a plain value. */
export const sealedWith = (value: string): string | null =>
  isSealed(value) ? (value.slice(SEALED_PREFIX.length).split(':')[0] ?? null) : null;

export class SecretBox {
  constructor(readonly keys: readonly SecretKey[]) {}

  /** Whether a key is configured (without one nothing can be sealed). */
  get ready(): boolean {
    return this.keys.length > 0;
  }

  /** The id of the sealing key. */
  get currentId(): string | null {
    return this.keys[0]?.id ?? null;
  }

  seal(plain: string, context: string): string {
    const current = this.keys[0];
    // 503 naming the missing key: a secret is never stored in plain text
    if (!current) throw new AppError('secretsKeyMissing');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${current.id}:${iv.toString('base64url')}:${data.toString('base64url')}`;
  }

  /** The plain text of a sealed value (a plain value, from before sealing, is itself). */
  open(value: string, context: string): string {
    if (!isSealed(value)) return value;
    const [id, iv, data] = value.slice(SEALED_PREFIX.length).split(':');
    const key = this.keys.find((k) => k.id === id);
    if (!key) throw new Error(`a secret is sealed with key ${id}, which is not among the configured keys`);
    const bytes = Buffer.from(data ?? '', 'base64url');
    if (bytes.length < 16) throw new Error('a sealed secret is damaged');
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  }

  /** Sealed with the current key already. */
  current(value: string): boolean {
    return sealedWith(value) === this.currentId;
  }
}

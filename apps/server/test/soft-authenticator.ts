import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { encodeCBOR } from '@levischuck/tiny-cbor';

/**
 * A WebAuthn authenticator in software, for tests: it makes real ES256 credentials (P-256 keys of
 * node:crypto), answers a registration with a `none` or a `packed` (self) attestation and an
 * authentication with a signed assertion, byte for byte as the WebAuthn spec lays them out — so the
 * server checks what a browser and a security key would send. Its counter grows with each assertion
 * unless `counter: false` (as many platform passkeys keep 0).
 */
type Credential = { id: Buffer; privateKey: KeyObject; rpId: string; userHandle: string; counter: number };

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: { id: string }[] };

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(readonly settings: { attestation?: 'none' | 'packed'; counter?: boolean } = {}) {}

  /** navigator.credentials.create at `origin`: a new credential, answered as `@simplewebauthn/browser` answers. */
  create(options: CreationOptions, origin: string) {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const credential: Credential = { id: randomBytes(32), privateKey, rpId, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([UP | UV | AT]),
      u32(credential.counter),
      Buffer.alloc(16), // aaguid: none
      u16(credential.id.length),
      credential.id,
      Buffer.from(cose),
    ]);
    const attStmt =
      this.settings.attestation === 'packed'
        ? new Map<string, number | Uint8Array>([
            ['alg', -7],
            ['sig', sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey)],
          ])
        : new Map<string, number | Uint8Array>();
    const attestationObject = encodeCBOR(
      new Map<string, string | Uint8Array | Map<string, number | Uint8Array>>([
        ['fmt', this.settings.attestation ?? 'none'],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get at `origin`: an assertion by the first credential the options allow (or
   * `use`, whether allowed or not), its counter grown first.
   */
  get(options: RequestOptions, origin: string, use?: Credential) {
    const allowed = new Set(options.allowCredentials?.map((c) => c.id));
    const credential = use ?? this.credentials.find((c) => allowed.has(b64url(c.id)));
    if (!credential) throw new Error('no credential of this authenticator is allowed');
    if (this.settings.counter !== false) credential.counter += 1;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([UP | UV]), u32(credential.counter)]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}

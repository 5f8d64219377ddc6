import type { WebauthnResponse } from '@atrium/contracts/auth';

/**
 * The browser side of passkeys (WebAuthn) through `@simplewebauthn/browser`, loaded only when a passkey is
 * made or used: the options come from the server as JSON and the answer goes back as JSON.
 */
const browser = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys here (a secure context with WebAuthn). */
export const passkeysAvailable = () => typeof window !== 'undefined' && window.isSecureContext && 'PublicKeyCredential' in window;

/** navigator.credentials.get with the server's options: the signed assertion. */
export async function passkeyAssertion(options: Record<string, unknown>): Promise<WebauthnResponse> {
  const { startAuthentication } = await browser();
  return (await startAuthentication({ optionsJSON: options as never })) as unknown as WebauthnResponse;
}

/** navigator.credentials.create with the server's options: the new passkey's attestation. */
export async function passkeyAttestation(options: Record<string, unknown>): Promise<WebauthnResponse> {
  const { startRegistration } = await browser();
  return (await startRegistration({ optionsJSON: options as never })) as unknown as WebauthnResponse;
}

import { v4 as uuidv4 } from 'uuid';

export const TOKEN_KEY = 'token';
const DEVICE_KEY = 'device';
// Set while the "sign-in expired" dialog is open, so a second invalid-login answer does not stack another
const TOKEN_FLAG_KEY = 'flag';
// spec 3: written after a successful sign-in, value 'flag'
const SIGNED_IN_KEY = 'tokenFlag';
// why the last session ended, shown once on the sign-in page (per browser tab)
const SIGN_OUT_REASON_KEY = 'signOutReason';
// set while the session was signed in by single sign-on: signing out then ends it at the provider too
const SSO_KEY = 'sso';

export const markSso = (on: boolean) => (on ? localStorage.setItem(SSO_KEY, '1') : localStorage.removeItem(SSO_KEY));
export const isSso = () => localStorage.getItem(SSO_KEY) === '1';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

export function isLoggedIn(): boolean {
  return Boolean(getToken());
}

/** The browser's device id: a UUID v4 made once and kept. */
export function getDeviceId(): string {
  const stored = localStorage.getItem(DEVICE_KEY);
  if (stored) return stored;
  const id = uuidv4();
  localStorage.setItem(DEVICE_KEY, id);
  return id;
}

export function getTokenFlag(): boolean {
  return localStorage.getItem(TOKEN_FLAG_KEY) === '1';
}

export function setTokenFlag(on: boolean): void {
  if (on) localStorage.setItem(TOKEN_FLAG_KEY, '1');
  else localStorage.removeItem(TOKEN_FLAG_KEY);
}

export function markSignedIn(): void {
  localStorage.setItem(SIGNED_IN_KEY, 'flag');
  sessionStorage.removeItem(SIGN_OUT_REASON_KEY);
  signedOutHere = false;
}

export function clearSignedIn(): void {
  localStorage.removeItem(SIGNED_IN_KEY);
  signedOutHere = true;
}

// this tab signed out on purpose: a late answer of the closed session is not a reason to ask about it
let signedOutHere = false;
export const hasSignedOutHere = () => signedOutHere;

export function rememberSignOutReason(reason: string): void {
  sessionStorage.setItem(SIGN_OUT_REASON_KEY, reason);
}

/**
 * The reason the last session of this tab ended, until the next sign-in: the sign-in page may mount twice
 * (once as the session store empties, again after the reload that follows), and both must say why.
 */
export function signOutReason(): string | null {
  return sessionStorage.getItem(SIGN_OUT_REASON_KEY);
}

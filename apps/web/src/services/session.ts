import { Notification } from '@arco-design/web-react';
import type { MenuRoute, SignInResult, UserInfo } from '@atrium/contracts/auth';
import i18next from 'i18next';
import { create } from 'zustand';
import { authApi } from '../api/auth';
import { clearSignedIn, clearToken, isSso, markSignedIn, markSso, setToken } from '../api/storage';
import { removeRouteListener } from './route-listener';

type SessionState = {
  userInfo: UserInfo | null;
  /** Empty until user info is loaded (spec 4: "logged in without role"). */
  role: string;
  serverMenu: MenuRoute[];
  setUserInfo: (info: UserInfo) => void;
  setServerMenu: (menu: MenuRoute[]) => void;
  reset: () => void;
};

export const useSession = create<SessionState>()((set) => ({
  userInfo: null,
  role: '',
  serverMenu: [],
  setUserInfo: (userInfo) => set({ userInfo, role: userInfo.role }),
  setServerMenu: (serverMenu) => set({ serverMenu }),
  reset: () => set({ userInfo: null, role: '', serverMenu: [] }),
}));

/** Other stores (tab bar, kept-alive pages) register here to be emptied on logout. */
const resetters = new Set<() => void>();
export function onSessionReset(reset: () => void): () => void {
  resetters.add(reset);
  return () => resetters.delete(reset);
}

/** A sign-in whose password was right and whose second step is pending (`mfa: 'required'` or `'enrol'`). */
export type PendingSignIn = Exclude<SignInResult, { token: string }>;

/** Signs in with the password; answers the pending second step when the account has (or must have) one. */
export async function login(input: Parameters<typeof authApi.login>[0]): Promise<PendingSignIn | null> {
  try {
    const result = await authApi.login(input);
    if ('token' in result) {
      signedIn(result.token);
      return null;
    }
    clearToken();
    return result;
  } catch (error) {
    clearToken();
    throw error;
  }
}

/** Keeps the token of a finished sign-in (after the password, or after its second step). */
export function signedIn(token: string, sso = false): void {
  setToken(token);
  markSignedIn();
  markSso(sso);
}

export async function loadUserInfo(): Promise<UserInfo> {
  const info = await authApi.userInfo();
  useSession.getState().setUserInfo(info);
  return info;
}

const MENU_NOTICE = 'menuNotice';

/** Fetches the server menu with the spec's closable "menuNotice" (loading, then success or error). */
export async function loadServerMenu(): Promise<MenuRoute[]> {
  const t = i18next.t.bind(i18next);
  Notification.info({ id: MENU_NOTICE, content: t('menu.loading'), closable: true, duration: 0, position: 'bottomRight' });
  try {
    const menu = await authApi.menu();
    useSession.getState().setServerMenu(menu);
    Notification.success({ id: MENU_NOTICE, content: t('menu.loaded'), closable: true, duration: 1500, position: 'bottomRight' });
    return menu;
  } catch (error) {
    Notification.error({ id: MENU_NOTICE, content: t('menu.loadFailed'), closable: true, duration: 3000, position: 'bottomRight' });
    throw error;
  }
}

/** After a new token (sign-in or tenant switch): who am I here, and what may I open. */
export async function loadSession(menuFromServer: boolean): Promise<void> {
  await loadUserInfo();
  if (menuFromServer) await loadServerMenu();
}

// set while signing out: the sign-in page is opened before the token is dropped, and must not send
// the user straight back into the app
let leaving = false;
export const startLeaving = () => {
  leaving = true;
};
export const isLeaving = () => leaving;

/**
 * Spec 4: always, even when the server call fails, forget the user, token, route listeners and menu.
 * A session signed in by single sign-on answers the provider's sign-out address to go to next (or null).
 */
export async function logout(): Promise<string | null> {
  try {
    if (isSso()) return (await authApi.ssoLogout()).endSessionUrl;
    await authApi.logout();
    return null;
  } catch {
    // the session is forgotten locally whatever the server answered
    return null;
  } finally {
    clearLocalSession();
  }
}

export function clearLocalSession(): void {
  useSession.getState().reset();
  clearToken();
  leaving = false;
  clearSignedIn();
  markSso(false);
  removeRouteListener();
  for (const reset of resetters) reset();
}

import { Message } from '@arco-design/web-react';
import i18next from 'i18next';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { getToken } from '../api/storage';
import { canVisit, findLeafByPath, firstPermittedPath } from './routes';
import { loadServerMenu, loadUserInfo, logout, useSession } from './session';
import { useSettings } from './settings';

/** `/login?redirect=<path>&<original query>` so sign-in comes back to where the user was going. */
export function loginRedirect(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete('redirect');
  const query = new URLSearchParams({ redirect: url.pathname });
  for (const [key, value] of params) query.append(key, value);
  return `/login?${query.toString()}`;
}

const SITE = 'http://atrium.invalid';

/**
 * A redirect target as the browser would resolve it, when it stays on this site: a path, never another
 * host, however it is written ('//host', '/\\host', or a tab the URL parser drops from '/\t/host').
 */
function sameSitePath(target: string | null): URL | undefined {
  if (!target?.startsWith('/')) return undefined;
  const url = new URL(target, SITE);
  return url.origin === SITE ? url : undefined;
}

/** Where sign-in goes: the redirect target with its query, or the first permitted route. */
export function afterLoginPath(search: string): string {
  const params = new URLSearchParams(search);
  const target = sameSitePath(params.get('redirect'));
  params.delete('redirect');
  if (target) {
    for (const [key, value] of params) target.searchParams.append(key, value);
    return `${target.pathname}${target.search}${target.hash}`;
  }
  const { role, serverMenu } = useSession.getState();
  return firstPermittedPath({ role, serverMenu, menuFromServer: useSettings.getState().menuFromServer }) ?? '/staging';
}

/**
 * The navigation guards of spec 2, in order, for every page inside the layout. (The progress bar,
 * guard 1, follows the router's navigation state in the layout.)
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const session = useSession.getState();
  // 3. not signed in: only public routes, which live outside this layout
  if (!getToken()) throw redirect(loginRedirect(url));
  // 2. signed in without a role: fetch user info; failing that, log out and sign in again
  if (!session.role) {
    try {
      await loadUserInfo();
    } catch {
      await logout();
      throw redirect(loginRedirect(url));
    }
  }
  const { menuFromServer } = useSettings.getState();
  // 5. menu from server: fetch it when absent
  if (menuFromServer && useSession.getState().serverMenu.length === 0) {
    try {
      await loadServerMenu();
    } catch {
      // the notice told the user; the guard below falls back to what the role allows
    }
  }
  const { role, serverMenu } = useSession.getState();
  const access = { role, serverMenu, menuFromServer: menuFromServer && serverMenu.length > 0 };
  const target = findLeafByPath(url.pathname);
  // 4 and 5: the route's roles, and presence in the server menu
  if (target && !canVisit(target, access)) {
    const fallback = firstPermittedPath(access);
    Message.warning({ id: 'routeDenied', content: i18next.t('permission.denied') });
    if (fallback && fallback !== url.pathname) throw redirect(fallback);
    throw new Response('Forbidden', { status: 403 });
  }
  return null;
}

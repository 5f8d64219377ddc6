import { useMatches } from 'react-router';
import type { RouteHandle } from '../app/routes';
import { pageKey } from './keep-alive/keys';

/** The catalogue route being shown (its name and meta), from the deepest matched route's handle. */
export function useCurrentRoute(): RouteHandle | undefined {
  return useCurrentPage().route;
}

/** The route being shown and the key its page is kept under (its name; with the path when it has parameters). */
export function useCurrentPage(): { route: RouteHandle | undefined; key: string } {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    const handle = match?.handle as RouteHandle | undefined;
    if (handle?.name && match) return { route: handle, key: pageKey(handle.name, match.pathname, match.params) };
  }
  return { route: undefined, key: '' };
}

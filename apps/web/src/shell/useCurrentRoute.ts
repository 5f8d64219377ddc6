import { useMatches } from 'react-router';
import type { RouteHandle } from '../services/routes';

/** The catalogue route being shown (its name and meta), from the deepest matched route's handle. */
export function useCurrentRoute(): RouteHandle | undefined {
  return useCurrentMatch().route;
}

/** The route being shown, with the path and parameters it matched. */
export function useCurrentMatch(): {
  route: RouteHandle | undefined;
  pathname: string;
  params: Readonly<Record<string, string | undefined>>;
} {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    const handle = match?.handle as RouteHandle | undefined;
    if (handle?.name && match) return { route: handle, pathname: match.pathname, params: match.params };
  }
  return { route: undefined, pathname: '', params: {} };
}

import { useMatches } from 'react-router';
import type { RouteHandle } from '../app/routes';

/** The catalogue route being shown (its name and meta), from the deepest matched route's handle. */
export function useCurrentRoute(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.name) return handle;
  }
  return undefined;
}

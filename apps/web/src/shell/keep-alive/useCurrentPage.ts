import type { RouteHandle } from '../../services/routes';
import { useCurrentMatch } from '../useCurrentRoute';
import { pageKey } from './keys';

/** The route being shown and the key its page is kept under (its name; with the path when it has parameters). */
export function useCurrentPage(): { route: RouteHandle | undefined; key: string } {
  const { route, pathname, params } = useCurrentMatch();
  return { route, key: route ? pageKey(route.name, pathname, params) : '' };
}

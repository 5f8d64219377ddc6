import { useSyncExternalStore } from 'react';

const PHONE_QUERY = '(max-width: 575px)';

/**
 * True under 576 px wide (phones): lists show a reduced set of columns. Whether the side menu is a drawer
 * is the app state's `device` (app/settings.ts), which changes at a wider breakpoint.
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(PHONE_QUERY);
      media.addEventListener('change', notify);
      return () => media.removeEventListener('change', notify);
    },
    () => window.matchMedia(PHONE_QUERY).matches,
  );
}

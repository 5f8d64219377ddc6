import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 991px)';

/** True under 992 px wide, where the side menu becomes a drawer. */
export function useIsNarrow(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(QUERY);
      media.addEventListener('change', notify);
      return () => media.removeEventListener('change', notify);
    },
    () => window.matchMedia(QUERY).matches,
  );
}

const PHONE_QUERY = '(max-width: 575px)';

/** True under 576 px wide (phones): lists show a reduced set of columns. */
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

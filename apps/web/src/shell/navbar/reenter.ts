import type { QueryClient } from '@tanstack/react-query';
import { loadSession, useSession } from '../../services/session';
import { useSettings } from '../../services/settings';
import { useTabs } from '../tab-bar/tabs-store';

/**
 * After the session's access changed (another tenant, another role): nothing fetched before may show,
 * the user info and the menu are fetched again, and the open pages close (kept-alive pages remount).
 */
export async function reenter(queryClient: QueryClient): Promise<void> {
  queryClient.clear();
  useSession.getState().setServerMenu([]);
  await loadSession(useSettings.getState().menuFromServer);
  useTabs.getState().closeAll();
}

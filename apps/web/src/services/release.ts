import { create } from 'zustand';

/** The release this tab's code was built as (the root package.json's version, vite.config.ts). */
export const webRelease: string = typeof __ATRIUM_RELEASE__ === 'string' ? __ATRIUM_RELEASE__ : 'dev';

/** The header every server answer names its release in. */
export const RELEASE_HEADER = 'x-atrium-release';

/**
 * Whether a server answering `server` runs another release than this tab's code: an upgrade (or a
 * rollback) happened since the tab loaded. No header (a proxy's own error page, an older server) says
 * nothing; versions compare as written, less a leading `v` and surrounding space.
 */
export function isOtherRelease(server: string | null | undefined, web: string = webRelease): boolean {
  if (!server) return false;
  const plain = (v: string) => v.trim().replace(/^v/i, '');
  return plain(server) !== '' && plain(server) !== plain(web);
}

/** Why the tab suspects it is out of date (for the notice's wording and the tests). */
export type StaleCause = 'release' | 'chunk' | 'realtime';

type ReleaseState = {
  /** The other release a server named, once one did. */
  serverRelease?: string;
  cause?: StaleCause;
  /** Hidden with "Later" until another sign comes. */
  dismissed: boolean;
};

export const useRelease = create<ReleaseState>(() => ({ dismissed: false }));

/** Reads the release header of a server answer; another release than the tab's opens the reload notice. */
export function noteServerRelease(header: string | null | undefined, cause: StaleCause = 'release') {
  if (!isOtherRelease(header)) return;
  const state = useRelease.getState();
  if (state.serverRelease === header && !state.dismissed) return;
  useRelease.setState({
    serverRelease: header ?? undefined,
    cause: state.cause && !state.dismissed ? state.cause : cause,
    dismissed: false,
  });
}

/**
 * A page's code failed to download, or the broker refused this tab: both happen when the server was
 * upgraded under the tab. Asks the server its release (any answer's header), so that an upgrade leads to
 * the reload notice; a plain network failure leaves the page's own retry.
 */
export async function checkRelease(cause: StaleCause): Promise<boolean> {
  try {
    const response = await fetch('/api/system/meta', { cache: 'no-store' });
    const header = response.headers.get(RELEASE_HEADER);
    noteServerRelease(header, cause);
    return isOtherRelease(header);
  } catch {
    return false;
  }
}

/** Checks of input typed but not saved (an open form): reloading asks first while one says so. */
const unsaved = new Set<() => boolean>();

/** Registers a check of unsaved input while a form is open; answers the function that removes it. */
export function holdUnsavedInput(check: () => boolean): () => void {
  unsaved.add(check);
  return () => unsaved.delete(check);
}

/** Whether any open form holds input that a reload would throw away. */
export function hasUnsavedInput(): boolean {
  for (const check of unsaved) if (check()) return true;
  return false;
}
